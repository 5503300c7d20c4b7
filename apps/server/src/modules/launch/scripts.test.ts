import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { shq } from "../../shared/quote";
import { installScript, launchBase, REFUSED_EXIT, startScript } from "./posix-scripts";
import { launchCommands } from "./scripts";
import { installPs1 } from "./windows-script";

/** What an operator or a PUBLIC_URL could put in front of a script: quotes, substitutions, newlines. */
const hostile = {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, on purpose
  base: "https://console.example/p'a$(touch${IFS}pwned)`id`;x",
  token: `bl${"A".repeat(32)}`,
  nodeId: 7,
  nodeName: "n'1\"$(touch pwned)\nBURROW_EOF\ntouch pwned2 %i `id` '@ ]]></string>",
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "launch-scripts-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const dashOk = (script: string) => spawnSync("dash", ["-n"], { input: script }).status;

/**
 * The wrapper against a fake console: curl is a script answering from `answers` (URL → status and
 * file; "*" answers anything else), so the archive, caching and fallback paths run without a
 * network. It reads the URL and output from the `-K` config file as curl does, and records its
 * argv (`argv()`) and the config file's mode, to show the token never reaches a process list.
 */
function fakeConsole(tag: string, answers: Record<string, [number, string]>) {
  const home = path.join(dir, tag);
  const bin = path.join(home, "bin");
  fs.mkdirSync(bin, { recursive: true });
  const table = Object.entries(answers)
    .map(([url, [code, file]]) => `  ${url === "*" ? "*" : shq(url)}) CODE=${code}; SRC=${shq(file)} ;;`)
    .join("\n");
  const log = (f: string) => shq(path.join(home, f));
  fs.writeFileSync(
    path.join(bin, "curl"),
    `#!/bin/sh
printf '%s\\n' "$*" >> ${log("argv")}
OUT=; CFG=; P=; for a; do [ "$P" = -o ] && OUT="$a"; [ "$P" = -K ] && CFG="$a"; P="$a"; done; URL="$a"
if [ -n "$CFG" ]; then
  ls -ln "$CFG" | cut -c1-10 >> ${log("cfgmode")}
  URL=$(sed -n 's/^url = "\\(.*\\)"$/\\1/p' "$CFG" | sed 's/\\\\\\(.\\)/\\1/g')
  OUT=$(sed -n 's/^output = "\\(.*\\)"$/\\1/p' "$CFG" | sed 's/\\\\\\(.\\)/\\1/g')
fi
printf '%s\\n' "$URL" >> ${log("asked")}
case "$URL" in
${table}
  *) exit 7 ;;
esac
cp "$SRC" "$OUT"; printf %s "$CODE"
`,
    { mode: 0o755 },
  );
  const script = path.join(home, "start.sh");
  const run = (extra: Record<string, string> = {}) =>
    spawnSync("dash", [script], {
      env: { PATH: `${bin}:${process.env.PATH}`, BURROW_PREFIX: path.join(home, "root"), ...extra },
      encoding: "utf8",
    });
  const lines = (f: string) =>
    fs.existsSync(path.join(home, f)) ? fs.readFileSync(path.join(home, f), "utf8").trim().split("\n") : [];
  const asked = () => lines("asked");
  const argv = () => lines("argv");
  const cfgModes = () => lines("cfgmode");
  const state = path.join(home, "root/var/lib/burrow");
  return { home, bin, script, run, asked, argv, cfgModes, state };
}

/** A fake frpc (it prints its arguments) packed as frp's releases are: its .tar.gz and SHA-256. */
function fakeRelease(tag: string, says = "fake frpc") {
  const src = path.join(dir, `rel-${tag}`);
  fs.mkdirSync(path.join(src, "frp_9.9.9_linux"), { recursive: true });
  fs.writeFileSync(path.join(src, "frp_9.9.9_linux/frpc"), `#!/bin/sh\necho "${says} $*"\n`, { mode: 0o755 });
  const tgz = path.join(src, "frp.tar.gz");
  execFileSync("tar", ["-czf", tgz, "-C", src, "frp_9.9.9_linux"]);
  const sum = createHash("sha256").update(fs.readFileSync(tgz)).digest("hex");
  const file = (name: string, body: string) => {
    fs.writeFileSync(path.join(src, name), body);
    return path.join(src, name);
  };
  return { src, tgz, sum, file };
}

describe("the start wrapper", () => {
  const t = { base: "https://c.example", token: `bl${"B".repeat(32)}`, nodeId: 3 };
  const api = launchBase(t);
  const frpcUrl = () => `${api}/frpc?os=linux&arch=${arch()}`;
  /** A console serving `rel` for the platform and a config; `over` replaces answers. */
  const consoleOf = (tag: string, rel: ReturnType<typeof fakeRelease>, over: Record<string, [number, string]> = {}) => {
    const c = fakeConsole(tag, {
      [frpcUrl()]: [200, rel.file("source", `${rel.sum} https://files.example/frp.tar.gz\n`)],
      "https://files.example/frp.tar.gz": [200, rel.tgz],
      [`${api}/frpc.toml`]: [200, rel.file("toml", 'serverAddr = "n.example"\n')],
      ...over,
    });
    fs.writeFileSync(c.script, startScript(t));
    return c;
  };

  it("unpacks a verified .tar.gz, keeps the binary while the checksum holds, falls back to the last config when the console is out of reach", () => {
    const rel = fakeRelease("tgz");
    const c = consoleOf("tgz", rel);
    const first = c.run();
    const state = path.join(c.state, "node-3");
    expect(first.stdout.trim()).toBe(`fake frpc -c ${state}/frpc.toml`);
    expect(fs.readFileSync(path.join(state, "frpc.toml"), "utf8")).toBe('serverAddr = "n.example"\n');
    expect(fs.statSync(path.join(state, "frpc.toml")).mode & 0o077).toBe(0);
    expect(c.run().status).toBe(0);
    // the archive was fetched once: the second start found the same checksum and an intact binary
    expect(c.asked().filter((u) => u.endsWith(".tar.gz"))).toHaveLength(1);

    // console out of reach (curl fails): the last frpc and config, said so
    const away = fakeConsole("away", {});
    fs.writeFileSync(away.script, startScript(t));
    fs.cpSync(path.join(c.home, "root"), path.join(away.home, "root"), { recursive: true });
    const offline = away.run();
    expect(offline.stdout).toContain("fake frpc -c");
    expect(offline.stderr).toContain("沿用上次获取的配置");
    // a cached binary someone changed is not run when the console is away
    fs.appendFileSync(path.join(away.state, "node-3/frpc"), "echo changed\n");
    const tampered = away.run();
    expect(tampered.status).toBe(2);
    expect(tampered.stdout).toBe("");
    // … and exit 2 (restarted) when it has nothing yet
    fs.rmSync(path.join(away.home, "root"), { recursive: true });
    expect(away.run().status).toBe(2);
  });

  it("the token never reaches curl's argv: the URLs go in a 0600 config file, removed after; https only on an https console", () => {
    const rel = fakeRelease("argv");
    const c = consoleOf("argv", rel);
    expect(c.run().stdout).toContain("fake frpc -c");
    expect(c.asked()).toEqual([frpcUrl(), "https://files.example/frp.tar.gz", `${api}/frpc.toml`]);
    expect(c.argv()).toHaveLength(3);
    for (const line of c.argv()) {
      expect(line).not.toContain(t.token);
      expect(line).toContain("--proto =https --proto-redir =https");
    }
    expect(c.cfgModes()).toEqual(["-rw-------", "-rw-------", "-rw-------"]);
    expect(fs.readdirSync(path.join(c.state, "node-3")).filter((f) => f.includes("cfg"))).toEqual([]);
    // a console on plain http (loopback): no https-only options
    const plain = { ...t, base: "http://127.0.0.1:8080" };
    const h = fakeConsole("plain", { "*": [500, rel.file("oops", "down")] });
    fs.writeFileSync(h.script, startScript(plain));
    expect(h.run().status).toBe(2);
    expect(h.argv()[0]).not.toContain("--proto");
    expect(h.asked()[0]).toBe(`${launchBase(plain)}/frpc?os=linux&arch=${arch()}`);
  });

  it("a download that fails or does not match its checksum runs the verified cached frpc with a warning; with nothing cached it exits 2, never 3", () => {
    const good = fakeRelease("good");
    const c = consoleOf("fallback", good);
    expect(c.run().status).toBe(0);
    // the console now names another build whose checksum is wrong (a stale copy, a mistyped row)
    const bad = fakeRelease("bad", "bad frpc");
    const wrong = bad.file("wrong", `${"0".repeat(64)} https://files.example/new.tar.gz\n`);
    for (const [why, answers] of [
      ["校验失败", { [frpcUrl()]: [200, wrong], "https://files.example/new.tar.gz": [200, bad.tgz] }],
      ["下载 frpc 失败（HTTP 404）", { [frpcUrl()]: [200, wrong], "https://files.example/new.tar.gz": [404, wrong] }],
      ["下载 frpc 失败（HTTP 403）", { [frpcUrl()]: [200, wrong], "https://files.example/new.tar.gz": [403, wrong] }],
      ["下载 frpc 失败（HTTP 000）", { [frpcUrl()]: [200, wrong] }],
    ] as [string, Record<string, [number, string]>][]) {
      const d = consoleOf(`fallback-${why.length}-${Object.keys(answers).length}`, good, answers);
      fs.cpSync(path.join(c.home, "root"), path.join(d.home, "root"), { recursive: true });
      const r = d.run();
      expect(r.status, why).toBe(0);
      expect(r.stdout.trim(), why).toBe(`fake frpc -c ${path.join(d.state, "node-3")}/frpc.toml`);
      expect(r.stderr, why).toContain(`警告：`);
      expect(r.stderr, why).toContain(why);
      expect(r.stderr, why).toContain("沿用此前校验通过的 frpc");
      expect(fs.existsSync(path.join(d.state, "node-3/download")), why).toBe(false);
      // without a cached frpc: exit 2 (retried), nothing run
      fs.rmSync(path.join(d.home, "root"), { recursive: true });
      const bare = d.run();
      expect(bare.status, why).toBe(2);
      expect(bare.stdout, why).toBe("");
      expect(fs.existsSync(path.join(d.state, "node-3/frpc")), why).toBe(false);
    }
  });

  it("exits 3 only on the console's 401/403, its text printed without control characters; any other answer is retried", () => {
    const rel = fakeRelease("codes");
    const body = rel.file("refusal", "启动令牌已失效\u001b[2J\u0007\r\nsecond line\u0000");
    for (const code of [401, 403]) {
      const c = consoleOf(`refused-${code}`, rel, { [frpcUrl()]: [code, body] });
      const r = c.run();
      expect(r.status, String(code)).toBe(REFUSED_EXIT);
      expect(r.stderr).toContain("启动令牌已失效[2J\nsecond line");
      const controls = [...r.stderr]
        .map((ch) => ch.charCodeAt(0))
        .filter((n) => (n < 32 && n !== 9 && n !== 10) || n === 127);
      expect(controls).toEqual([]);
    }
    // … also on the config's fetch, after a cached frpc ran before
    const cfg = consoleOf("refused-toml", rel);
    expect(cfg.run().status).toBe(0);
    fs.writeFileSync(cfg.script, startScript(t));
    const later = fakeConsole("refused-toml2", {
      [frpcUrl()]: [200, path.join(rel.src, "source")],
      [`${api}/frpc.toml`]: [401, body],
    });
    fs.writeFileSync(later.script, startScript(t));
    fs.cpSync(path.join(cfg.home, "root"), path.join(later.home, "root"), { recursive: true });
    expect(later.run().status).toBe(REFUSED_EXIT);
    for (const code of [400, 404, 429, 500, 503]) {
      const c = consoleOf(`other-${code}`, rel, { [frpcUrl()]: [code, body] });
      const r = c.run();
      expect(r.status, String(code)).toBe(2);
      expect(r.stderr).toContain(`控制台答复 HTTP ${code}`);
    }
  });

  it("without curl: GNU wget reads the URL from a 0600 list file; busybox wget (no such option) gets it after --", () => {
    // a PATH holding the system's tools but curl and wget, and a wget that records what it is given
    const home = path.join(dir, "wget");
    const bin = path.join(home, "bin");
    fs.mkdirSync(bin, { recursive: true });
    for (const d of ["/usr/local/bin", "/usr/bin", "/bin"])
      for (const f of fs.existsSync(d) ? fs.readdirSync(d) : [])
        if (!["curl", "wget"].includes(f) && !fs.existsSync(path.join(bin, f)))
          fs.symlinkSync(path.join(d, f), path.join(bin, f));
    const log = (f: string) => shq(path.join(home, f));
    fs.writeFileSync(
      path.join(bin, "wget"),
      `#!/bin/sh
if [ "$1" = --version ]; then [ -n "\${FAKE_GNU:-}" ] && echo "GNU Wget 1.21.4"; exit 1; fi
printf '%s\\n' "$*" >> ${log("argv")}
LIST=; P=; for a; do [ "$P" = -i ] && LIST="$a"; P="$a"; done
if [ -n "$LIST" ]; then ls -ln "$LIST" | cut -c1-10 >> ${log("listmode")}; cat "$LIST" >> ${log("asked")}; fi
exit 8
`,
      { mode: 0o755 },
    );
    const script = path.join(home, "start.sh");
    fs.writeFileSync(script, startScript(t));
    const read = (f: string) => fs.readFileSync(path.join(home, f), "utf8").trim().split("\n");
    const run = (extra: Record<string, string>) =>
      spawnSync("dash", [script], {
        env: { PATH: bin, BURROW_PREFIX: path.join(home, "root"), ...extra },
        encoding: "utf8",
      });
    const gnu = run({ FAKE_GNU: "1" });
    expect(gnu.status).toBe(2);
    expect(gnu.stderr).toContain("无法从控制台获取");
    expect(read("asked")).toEqual([frpcUrl()]);
    expect(read("listmode")).toEqual(["-rw-------"]);
    expect(read("argv")[0]).not.toContain(t.token);
    // busybox wget: the residual risk of docs/launch.md — the URL in argv, after --
    fs.rmSync(path.join(home, "argv"));
    expect(run({}).status).toBe(2);
    expect(read("argv")[0]).toMatch(/ -- https:\/\/c\.example\/launch\//);
  });

  it("a state folder someone else could write is removed and made again before anything in it is run", () => {
    const rel = fakeRelease("own");
    const c = consoleOf("own", rel);
    const node = path.join(c.state, "node-3");
    fs.mkdirSync(node, { recursive: true });
    fs.chmodSync(c.state, 0o777);
    fs.writeFileSync(path.join(node, "planted"), "x");
    const r = c.run();
    expect(r.status).toBe(0);
    expect(r.stderr).toContain("删除后重建");
    expect(fs.existsSync(path.join(node, "planted"))).toBe(false);
    expect(fs.statSync(c.state).mode & 0o777).toBe(0o755);
    expect(fs.statSync(node).mode & 0o777).toBe(0o700);
    // a symlink in its place is not followed
    const elsewhere = path.join(c.home, "elsewhere");
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    fs.rmSync(node, { recursive: true });
    fs.symlinkSync(elsewhere, node);
    expect(c.run().status).toBe(0);
    expect(fs.lstatSync(node).isDirectory()).toBe(true);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });
});

describe("the wrapper's architecture names", () => {
  it("maps uname -m to frp's names (mips by the machine's byte order), refuses an unknown one", () => {
    const t = { base: "https://c.example", token: `bl${"C".repeat(32)}`, nodeId: 5 };
    const c = fakeConsole("arch", {});
    fs.writeFileSync(path.join(c.home, "start.sh"), startScript(t));
    const le = os.endianness() === "LE" ? "le" : "";
    const cases: [string, string][] = [
      ["x86_64", "amd64"],
      ["aarch64", "arm64"],
      ["armv7l", "arm"],
      ["i686", "386"],
      ["mipsel", "mipsle"],
      ["mips64el", "mips64le"],
      ["mips", `mips${le}`],
      ["riscv64", "riscv64"],
      ["loongarch64", "loong64"],
    ];
    for (const [m] of cases) expect(c.run({ BURROW_ARCH: m }).status, m).toBe(2);
    expect(c.asked().map((u) => /arch=(\w+)/.exec(u)?.[1])).toEqual(cases.map(([, a]) => a));
    const sparc = c.run({ BURROW_ARCH: "sparc64" });
    expect(sparc.status).toBe(REFUSED_EXIT);
    expect(sparc.stderr).toContain("不支持的架构：sparc64");
  });
});

describe("installer scripts with hostile values", () => {
  it("parse under dash, and the values arrive byte for byte: nothing runs", () => {
    const install = installScript(hostile);
    expect(dashOk(install)).toBe(0);
    expect(dashOk(startScript(hostile))).toBe(0);
    // install into a temp root with a fake curl that records what the wrapper asks for (401 to all)
    const c = fakeConsole("hostile", { "*": [401, path.join(dir, "gone")] });
    fs.writeFileSync(path.join(dir, "gone"), "gone");
    const root = path.join(c.home, "root");
    // a folder for the wrapper pre-created by someone else (writable by all, a file planted): made again
    fs.mkdirSync(path.join(root, "usr/local/lib/burrow"), { recursive: true });
    fs.chmodSync(path.join(root, "usr/local/lib/burrow"), 0o777);
    fs.writeFileSync(path.join(root, "usr/local/lib/burrow/planted"), "x");
    const env = { ...process.env, PATH: `${c.bin}:${process.env.PATH}`, BURROW_PREFIX: root, BURROW_SYSTEMCTL: "true" };
    execFileSync("dash", ["-s"], { input: install, env, cwd: dir, stdio: ["pipe", "pipe", "ignore"] });
    expect(fs.existsSync(path.join(root, "usr/local/lib/burrow/planted"))).toBe(false);
    expect(fs.statSync(path.join(root, "usr/local/lib/burrow")).mode & 0o777).toBe(0o755);
    const wrapper = path.join(root, "usr/local/lib/burrow/frpc-start-7");
    expect(fs.statSync(wrapper).mode & 0o777).toBe(0o700);
    const unit = fs.readFileSync(path.join(root, "etc/systemd/system/burrow-frpc-7.service"), "utf8");
    expect(unit).toContain(`RestartPreventExitStatus=${REFUSED_EXIT}`);
    expect(unit.split("\n").filter((l) => l.startsWith("Description="))).toHaveLength(1);
    expect(unit).toContain("%%i");
    const run = spawnSync("dash", [wrapper], { env, cwd: dir, encoding: "utf8" });
    expect(run.status).toBe(REFUSED_EXIT);
    expect(run.stderr).toContain("gone");
    const asked = c.asked();
    expect(asked).toContain(`${launchBase(hostile)}/frpc?os=linux&arch=${arch()}`);
    expect(fs.existsSync(path.join(dir, "pwned"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "pwned2"))).toBe(false);
    // OpenWrt's branch writes a procd script instead
    execFileSync("dash", ["-s"], { input: install, env: { ...env, BURROW_SYSTEM: "openwrt" }, cwd: dir });
    const procd = fs.readFileSync(path.join(root, "etc/init.d/burrow-frpc-7"), "utf8");
    expect(procd).toContain("procd_set_param command /usr/local/lib/burrow/frpc-start-7");
    expect(dashOk(procd.replace(/^#!.*\n/, ""))).toBe(0);
    // macOS: a launchd plist, the launchctl command overridable; an earlier install's wrapper under /usr/local/lib goes
    expect(fs.existsSync(wrapper)).toBe(true);
    execFileSync("dash", ["-s"], { input: install, env: { ...env, BURROW_SYSTEM: "macos", BURROW_LAUNCHCTL: "true" } });
    const plist = fs.readFileSync(path.join(root, "Library/LaunchDaemons/com.burrow.frpc-7.plist"), "utf8");
    expect(plist).toContain("<key>KeepAlive</key><true/>");
    // … running the wrapper from a root-owned folder, not Homebrew's /usr/local/lib
    expect(plist).toContain("<string>/Library/Application Support/Burrow/frpc-start-7</string>");
    const mac = path.join(root, "Library/Application Support/Burrow");
    expect(fs.statSync(path.join(mac, "frpc-start-7")).mode & 0o777).toBe(0o700);
    expect(fs.statSync(mac).mode & 0o777).toBe(0o755);
    expect(fs.existsSync(wrapper)).toBe(false);
    expect(fs.existsSync(path.join(dir, "pwned"))).toBe(false);
  });

  it("the one-line commands quote the address for their shell", () => {
    const cmds = launchCommands(hostile);
    for (const sys of ["linux", "openwrt", "macos"] as const) {
      expect(dashOk(cmds[sys])).toBe(0);
      // the quoted URL, echoed by dash, is the address itself
      expect(cmds[sys]).toContain(" -- '");
      const url = /-- ('(?:[^']|'\\'')*')/.exec(cmds[sys])?.[1] ?? "";
      expect(execFileSync("dash", ["-c", `printf %s ${url}`], { encoding: "utf8" })).toBe(
        `${launchBase(hostile)}/install.sh`,
      );
    }
    expect(dashOk(cmds.docker)).toBe(0);
    // Docker: the wrapper (the token) saved in a 0600 file the container mounts, not in docker run's arguments
    const [fetchPart, runPart] = cmds.docker.split(" && docker run ");
    expect(fetchPart).toMatch(/^\(umask 077 && .* -- '.+\/start\.sh'\)$/);
    expect(runPart).not.toContain(hostile.token);
    expect(runPart).toContain('-u 0 -v "$HOME/.burrow/burrow-frpc-7.sh:/burrow/start.sh:ro"');
    expect(runPart).toMatch(/ sh \/burrow\/start\.sh$/);
    expect(cmds.windows).toBe(`irm '${launchBase(hostile).replaceAll("'", "''")}/install.ps1' | iex`);
  });

  it("install.ps1: every value single-quoted for PowerShell, the here-string closed only where meant", () => {
    const ps = installPs1(hostile);
    const lines = ps.split("\n");
    expect(lines.filter((l) => l.startsWith("'@"))).toHaveLength(1);
    expect(ps).toContain(`$Api = '${launchBase(hostile).replaceAll("'", "''")}'`);
    // installed under Program Files, owner and ACL set whole; ProgramData only as the old folder removed
    expect(ps).toContain("$Root = Join-Path $env:ProgramFiles 'Burrow'");
    expect(ps).toContain("$acl.SetAccessRuleProtection($true, $false)");
    expect(ps).toContain("Set-Acl -LiteralPath $d -AclObject $acl");
    expect(lines.filter((l) => l.includes("ProgramData") && !l.startsWith("#"))).toEqual([
      "$Old = Join-Path $env:ProgramData 'Burrow\\node-7'",
    ]);
    // nothing outside the admin-only folder is removed recursively by Remove-Item (a planted junction)
    expect(
      lines.filter(
        (l) => !l.trim().startsWith("#") && /Remove-Item.*-Recurse/.test(l) && !/\$Download|\$Unpack/.test(l),
      ),
    ).toEqual([]);
    // the node's name only in a comment and the task's description, made one line and quoted
    for (const l of lines.filter((x) => x.includes("touch pwned")))
      expect(l.startsWith("#") || l.startsWith("Register-ScheduledTask")).toBe(true);
    expect(ps).toContain("-Description 'Burrow frpc（节点 n''1\"$(touch pwned) BURROW_EOF touch pwned2 %i `id` ''@");
  });
});

/** The wrapper's name for this machine's architecture (the test runs where the suite runs). */
function arch(): string {
  return ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch] ?? process.arch;
}
