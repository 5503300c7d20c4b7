import { oneLine, shq, xmlText } from "../../shared/quote";

/** What every installer is built from: the console's PUBLIC_URL, the customer's token, the node. */
export interface LaunchTarget {
  base: string;
  token: string;
  nodeId: number;
  /** the operator's name of the node: only ever in comments and descriptions, made one line */
  nodeName?: string;
}

/** The installers' fetches: `<PUBLIC_URL>/launch/<token>/<node>/…` (the path's own prefix kept). */
export const launchBase = (t: LaunchTarget): string =>
  `${new URL(t.base).href.replace(/\/+$/, "")}/launch/${t.token}/${t.nodeId}`;

/**
 * Exit status of a start that must not be retried: the console refused the token (401: rotated or
 * revoked) or the account (403: banned), or the machine's architecture has no frp build. Not 1,
 * which frpc itself exits with on any error (a restart is right then). A download that fails or
 * does not match its checksum is not final (2, retried): it may be a stale copy or a checksum row
 * an operator will correct, and a verified frpc already cached keeps running meanwhile.
 */
export const REFUSED_EXIT = 3;

/** Strips control characters (but tab and newline) from the console's text before it is printed. */
const CLEAN = "tr -d '\\000-\\010\\013-\\037\\177'";

/**
 * `own DIR MODE`: DIR as a directory only root may write (under BURROW_PREFIX: the running user).
 * A DIR someone else owns or may write (pre-created by a local user to swap the files root runs)
 * is removed and made again; a symlink too.
 */
const OWN_DIR = `own() {
  if [ -e "$1" ] || [ -L "$1" ]; then
    if [ -L "$1" ] || [ ! -d "$1" ] || ! ls -ldn "$1" | awk -v u="$(id -u)" '{ exit !($3 == u && substr($1, 6, 1) != "w" && substr($1, 9, 1) != "w") }'; then
      say "$1 不属于 root 或他人可写：删除后重建"; rm -rf "$1" || return 1
    fi
  fi
  mkdir -p "$1" && chmod "$2" "$1"
}`;

/**
 * The start wrapper (POSIX sh: dash, busybox ash, macOS sh), run at every start of the service:
 * the console's current frpc for this machine (downloaded when missing or changed, its SHA-256
 * verified before it is ever run), the customer's current frpc.toml, then exec frpc. A refusal
 * (401/403) prints the console's message and exits 3 (REFUSED_EXIT), which the service managers
 * are told not to restart; a console out of reach, a failed download or a checksum mismatch fall
 * back to the verified frpc and the config fetched last (exit 2, retried, without them). The
 * token-bearing URLs reach curl in a 0600 config file, never in its argv (visible to every local
 * user). BURROW_PREFIX moves every file under another root (tests run it unprivileged).
 */
export function startScript(t: LaunchTarget): string {
  return `#!/bin/sh
# Burrow 一键启动 (docs/launch.md): node ${t.nodeId}${t.nodeName ? `, ${oneLine(t.nodeName)}` : ""}
BURROW_API=${shq(launchBase(t))}
NODE=${t.nodeId}
umask 077
DIR="\${BURROW_PREFIX:-}/var/lib/burrow/node-$NODE"
say() { printf '%s\\n' "burrow: $*" >&2; }
${OWN_DIR}
own "\${BURROW_PREFIX:-}/var/lib/burrow" 755 && own "$DIR" 700 || { say "无法创建目录 $DIR"; exit 2; }
case "$(uname -s)" in Darwin) OS=darwin ;; FreeBSD) OS=freebsd ;; *) OS=linux ;; esac
M="\${BURROW_ARCH:-$(uname -m)}"
case "$M" in
  x86_64|amd64) ARCH=amd64 ;;
  aarch64|arm64|armv8*) ARCH=arm64 ;;
  arm*) ARCH=arm ;;
  i386|i486|i586|i686|x86|386) ARCH=386 ;;
  mips|mipsle|mipsel) ARCH=mips ;;
  mips64|mips64le|mips64el) ARCH=mips64 ;;
  riscv64) ARCH=riscv64 ;;
  loongarch64|loong64) ARCH=loong64 ;;
  *) say "不支持的架构：$M"; exit ${REFUSED_EXIT} ;;
esac
# uname -m says mips for both byte orders: OpenWrt names it, else od reads two bytes in the machine's order.
case "$ARCH" in mips|mips64)
  case "$M" in *le|*el) ARCH="\${ARCH}le" ;;
  *) if grep -qE "DISTRIB_ARCH='mips(64)?el" /etc/openwrt_release 2>/dev/null ||
       [ "$(printf '\\001\\000' | od -An -tu2 2>/dev/null | tr -d ' ')" = 1 ]; then ARCH="\${ARCH}le"; fi ;;
  esac ;;
esac
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}
# a value inside double quotes of curl's config file
cfgq() { printf '%s' "$1" | sed 's/[\\\\"]/\\\\&/g'; }
# fetch URL FILE: sets CODE (000: no answer). curl keeps the body of a refusal; busybox wget cannot.
# The URL holds the token: curl and GNU wget read it from a 0600 file, not from argv (which every
# local user can read in /proc); busybox wget has no such option (docs/launch.md: the residual risk).
fetch() {
  rm -f "$2"
  if command -v curl >/dev/null 2>&1; then
    printf 'url = "%s"\\noutput = "%s"\\n' "$(cfgq "$1")" "$(cfgq "$2")" > "$DIR/curl.cfg"
    PROTO=; case "$1" in https://*) PROTO="--proto =https --proto-redir =https" ;; esac
    CODE=$(curl -sS -L --connect-timeout 15 --max-time 600 $PROTO -w '%{http_code}' -K "$DIR/curl.cfg") || CODE=000
    rm -f "$DIR/curl.cfg"
  elif wget --version 2>/dev/null | grep -q 'GNU Wget'; then
    printf '%s\\n' "$1" > "$DIR/wget.list"
    if wget -q -T 60 -O "$2" -i "$DIR/wget.list"; then CODE=200; else CODE=000; NOBODY=1; fi
    rm -f "$DIR/wget.list"
  elif wget -q -T 60 -O "$2" -- "$1"; then CODE=200
  else CODE=000; NOBODY=1; fi
}
# answer FILE: 0 on 200; a refusal prints the console's message and stops; anything else is 1.
answer() {
  case "$CODE" in
    200) return 0 ;;
    401|403) say "$(head -c 1000 "$1" 2>/dev/null | ${CLEAN})"; rm -f "$1"; exit ${REFUSED_EXIT} ;;
    000) if [ -n "\${NOBODY:-}" ]; then say "无法从控制台获取（网络未就绪，或启动令牌已失效：请在控制台复制新的安装命令）"
         else say "无法连接控制台（网络未就绪？）"; fi ;;
    *) say "控制台答复 HTTP $CODE：$(head -c 300 "$1" 2>/dev/null | ${CLEAN})" ;;
  esac
  rm -f "$1"
  return 1
}
# cached: the frpc that passed its checksum when downloaded is still the same file
cached() { [ -x "$DIR/frpc" ] && [ -n "$BIN" ] && [ "$(sha256 "$DIR/frpc")" = "$BIN" ]; }
# keep WHY: a download is unusable (not final: a stale copy, a checksum row being corrected): the
# cached verified frpc runs, with a warning; without one, exit 2 (retried later)
keep() {
  rm -rf "$DIR/download" "$DIR/unpack"
  if cached; then say "警告：$1。沿用此前校验通过的 frpc"; else say "$1"; exit 2; fi
}
# unpack: the verified download (.tar.gz, .zip or the binary itself) becomes $DIR/frpc
unpack() {
  rm -rf "$DIR/unpack" && mkdir -p "$DIR/unpack" || return 1
  F=
  case "\${URL%%[?#]*}" in
    *.tar.gz|*.tgz) tar -xzf "$DIR/download" -C "$DIR/unpack" && F=$(find "$DIR/unpack" -type f -name frpc | head -n 1) ;;
    *.zip) unzip -q -o "$DIR/download" -d "$DIR/unpack" && F=$(find "$DIR/unpack" -type f -name frpc | head -n 1) ;;
    *) F="$DIR/download" ;;
  esac
  [ -n "$F" ] && [ -f "$F" ] && chmod 755 "$F" && mv -f "$F" "$DIR/frpc" || return 1
  printf '%s %s\\n' "$SUM" "$(sha256 "$DIR/frpc")" > "$DIR/frpc.sum"
  rm -rf "$DIR/unpack" "$DIR/download"
}

# 1. frpc: the console's current build for this machine, as "<sha256> <url>".
HAVE=; BIN=
read -r HAVE BIN 2>/dev/null < "$DIR/frpc.sum" || true
fetch "$BURROW_API/frpc?os=$OS&arch=$ARCH" "$DIR/frpc.source"
if answer "$DIR/frpc.source"; then
  read -r SUM URL < "$DIR/frpc.source"
  if [ "$HAVE" != "$SUM" ] || ! cached; then
    say "下载 frpc（$OS/$ARCH）：$URL"
    fetch "$URL" "$DIR/download"
    if [ "$CODE" != 200 ]; then keep "下载 frpc 失败（HTTP $CODE）"
    elif GOT=$(sha256 "$DIR/download"); [ "$GOT" != "$SUM" ]; then
      keep "frpc 校验失败：SHA-256 应为 $SUM，下载所得为 $GOT，下载的文件已删除、不会运行（请联系运营方）"
    elif ! unpack; then keep "下载的文件中没有可用的 frpc"
    fi
  fi
elif cached; then say "沿用已下载的 frpc"
else exit 2; fi

# 2. the customer's current frpc.toml for this node.
fetch "$BURROW_API/frpc.toml" "$DIR/frpc.toml.new"
if answer "$DIR/frpc.toml.new"; then mv -f "$DIR/frpc.toml.new" "$DIR/frpc.toml"
elif [ -f "$DIR/frpc.toml" ]; then say "沿用上次获取的配置"
else exit 2; fi
say "已获取节点 $NODE 的最新配置，启动 frpc"
exec "$DIR/frpc" -c "$DIR/frpc.toml"
`;
}

/** Name of the service on every system. */
export const serviceName = (t: LaunchTarget): string => `burrow-frpc-${t.nodeId}`;

/** A file written by the installer from a quoted here-document (nothing in it is expanded). */
const writeFile = (path: string, body: string, mode: string) =>
  `cat > "${path}" <<'BURROW_EOF'\n${body.replace(/\n$/, "")}\nBURROW_EOF\nchmod ${mode} "${path}"`;

/**
 * install.sh: writes the start wrapper (in a folder only root may write: an existing one owned or
 * writable by anyone else is made again) and registers it with the system's service manager —
 * launchd on macOS, procd on OpenWrt, systemd elsewhere — then starts it. BURROW_PREFIX (a root
 * directory) and BURROW_SYSTEMCTL / BURROW_LAUNCHCTL (the managers' commands) make it testable
 * without root; BURROW_SYSTEM=systemd|openwrt|macos forces a branch.
 */
export function installScript(t: LaunchTarget): string {
  const name = serviceName(t);
  const label = oneLine(`Burrow frpc（节点 ${t.nodeName ?? t.nodeId}）`);
  const start = `/usr/local/lib/burrow/frpc-start-${t.nodeId}`;
  // macOS: /usr/local/lib belongs to Homebrew's user there; the wrapper root runs lives in a root-owned folder
  const macStart = `/Library/Application Support/Burrow/frpc-start-${t.nodeId}`;
  const unit = [
    "[Unit]",
    `Description=${label.replaceAll("%", "%%").replaceAll("\\", "\\\\")}`,
    "After=network-online.target",
    "Wants=network-online.target",
    "[Service]",
    `ExecStart=${start}`,
    "Restart=always",
    "RestartSec=10",
    // a refusal (rotated or revoked token, a binary failing its checksum) is final until reinstalled
    `RestartPreventExitStatus=${REFUSED_EXIT}`,
    "[Install]",
    "WantedBy=multi-user.target",
  ].join("\n");
  const procd = [
    "#!/bin/sh /etc/rc.common",
    `# ${label}`,
    "START=99",
    "USE_PROCD=1",
    "start_service() {",
    "\tprocd_open_instance",
    `\tprocd_set_param command ${start}`,
    // at most 5 quick exits an hour, then procd gives up (a refusal would otherwise loop)
    "\tprocd_set_param respawn 3600 10 5",
    "\tprocd_set_param stdout 1",
    "\tprocd_set_param stderr 1",
    "\tprocd_close_instance",
    "}",
  ].join("\n");
  const plistLabel = `com.burrow.frpc-${t.nodeId}`;
  const plist = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0"><dict>',
    `<key>Label</key><string>${xmlText(plistLabel)}</string>`,
    `<key>ProgramArguments</key><array><string>/bin/sh</string><string>${xmlText(macStart)}</string></array>`,
    "<key>RunAtLoad</key><true/>",
    "<key>KeepAlive</key><true/>",
    "<key>ThrottleInterval</key><integer>10</integer>",
    `<key>StandardErrorPath</key><string>/var/log/${xmlText(name)}.log</string>`,
    `<key>StandardOutPath</key><string>/var/log/${xmlText(name)}.log</string>`,
    "</dict></plist>",
  ].join("\n");
  return `#!/bin/sh
# ${label}: 一键启动安装脚本 (docs/launch.md)
set -eu
P="\${BURROW_PREFIX:-}"
if [ -z "$P" ] && [ "$(id -u)" != 0 ]; then echo "请以 root 运行（sudo sh）" >&2; exit 1; fi
SYSTEM="\${BURROW_SYSTEM:-}"
if [ -z "$SYSTEM" ]; then
  if [ "$(uname -s)" = Darwin ]; then SYSTEM=macos
  elif [ -f /etc/openwrt_release ]; then SYSTEM=openwrt
  else SYSTEM=systemd; fi
fi
say() { printf '%s\\n' "burrow: $*" >&2; }
${OWN_DIR}
if [ "$SYSTEM" = macos ]; then LIB="$P/Library/Application Support/Burrow"; else LIB="$P/usr/local/lib/burrow"; fi
own "$LIB" 755
${writeFile(`$LIB/frpc-start-${t.nodeId}`, startScript(t), "700")}
case "$SYSTEM" in
macos)
  # an earlier install's wrapper under Homebrew's /usr/local/lib (it holds the token) goes
  rm -f "$P${start}"
  mkdir -p "$P/Library/LaunchDaemons"
  ${writeFile(`$P/Library/LaunchDaemons/${plistLabel}.plist`, plist, "644")}
  L="\${BURROW_LAUNCHCTL:-launchctl}"
  "$L" bootout system/${plistLabel} 2>/dev/null || true
  "$L" bootstrap system "$P/Library/LaunchDaemons/${plistLabel}.plist"
  echo ${shq(`已安装并启动 ${plistLabel}；日志：/var/log/${name}.log`)} ;;
openwrt)
  mkdir -p "$P/etc/init.d"
  ${writeFile(`$P/etc/init.d/${name}`, procd, "755")}
  if [ -z "$P" ]; then /etc/init.d/${name} enable; /etc/init.d/${name} restart; fi
  echo ${shq(`已安装并启动 ${name}；日志：logread -e frpc`)} ;;
*)
  mkdir -p "$P/etc/systemd/system"
  ${writeFile(`$P/etc/systemd/system/${name}.service`, unit, "644")}
  S="\${BURROW_SYSTEMCTL:-systemctl}"
  "$S" daemon-reload
  "$S" enable ${name}
  "$S" restart ${name}
  echo ${shq(`已安装并启动 ${name}；日志：journalctl -u ${name}`)} ;;
esac
`;
}
