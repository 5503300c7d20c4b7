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
 * file), so the archive, caching and fallback paths run without a network.
 */
function fakeConsole(tag: string, answers: Record<string, [number, string]>) {
  const home = path.join(dir, tag);
  const bin = path.join(home, "bin");
  fs.mkdirSync(bin, { recursive: true });
  const table = Object.entries(answers)
    .map(([url, [code, file]]) => `  ${shq(url)}) CODE=${code}; SRC=${shq(file)} ;;`)
    .join("\n");
  fs.writeFileSync(
    path.join(bin, "curl"),
    `#!/bin/sh\nOUT=; for a; do [ "$P" = -o ] && OUT="$a"; P="$a"; done; URL="$a"\nprintf '%s\\n' "$URL" >> ${shq(`${home}/asked`)}\ncase "$URL" in\n${table}\n  *) exit 7 ;;\nesac\ncp "$SRC" "$OUT"; printf %s "$CODE"\n`,
    { mode: 0o755 },
  );
  const run = (extra: Record<string, string> = {}) =>
    spawnSync("dash", [path.join(home, "start.sh")], {
      env: { PATH: `${bin}:${process.env.PATH}`, BURROW_PREFIX: path.join(home, "root"), ...extra },
      encoding: "utf8",
    });
  const asked = () => fs.readFileSync(path.join(home, "asked"), "utf8").trim().split("\n");
  return { home, run, asked };
}

describe("the start wrapper", () => {
  it("unpacks a verified .tar.gz, keeps the binary while the checksum holds, falls back to the last config when the console is out of reach", () => {
    const t = { base: "https://c.example", token: `bl${"B".repeat(32)}`, nodeId: 3 };
    const api = launchBase(t);
    const src = path.join(dir, "src");
    fs.mkdirSync(path.join(src, "frp_9.9.9_linux"), { recursive: true });
    fs.writeFileSync(path.join(src, "frp_9.9.9_linux/frpc"), '#!/bin/sh\necho "fake frpc $*"\n', { mode: 0o755 });
    execFileSync("tar", ["-czf", path.join(src, "frp.tar.gz"), "-C", src, "frp_9.9.9_linux"]);
    const sum = createHash("sha256")
      .update(fs.readFileSync(path.join(src, "frp.tar.gz")))
      .digest("hex");
    fs.writeFileSync(path.join(src, "source"), `${sum} https://files.example/frp.tar.gz\n`);
    fs.writeFileSync(path.join(src, "toml"), 'serverAddr = "n.example"\n');
    const frpcUrl = `${api}/frpc?os=linux&arch=${arch()}`;
    const c = fakeConsole("tgz", {
      [frpcUrl]: [200, path.join(src, "source")],
      "https://files.example/frp.tar.gz": [200, path.join(src, "frp.tar.gz")],
      [`${api}/frpc.toml`]: [200, path.join(src, "toml")],
    });
    fs.writeFileSync(path.join(c.home, "start.sh"), startScript(t));
    const first = c.run();
    const state = path.join(c.home, "root/var/lib/burrow/node-3");
    expect(first.stdout.trim()).toBe(`fake frpc -c ${state}/frpc.toml`);
    expect(fs.readFileSync(path.join(state, "frpc.toml"), "utf8")).toBe('serverAddr = "n.example"\n');
    expect(fs.statSync(path.join(state, "frpc.toml")).mode & 0o077).toBe(0);
    expect(c.run().status).toBe(0);
    // the archive was fetched once: the second start found the same checksum and an intact binary
    expect(c.asked().filter((u) => u.endsWith(".tar.gz"))).toHaveLength(1);

    // console out of reach (curl fails): the last frpc and config, said so
    const away = fakeConsole("away", {});
    fs.writeFileSync(path.join(away.home, "start.sh"), startScript(t));
    fs.cpSync(path.join(c.home, "root"), path.join(away.home, "root"), { recursive: true });
    const offline = away.run();
    expect(offline.stdout).toContain("fake frpc -c");
    expect(offline.stderr).toContain("沿用上次获取的配置");
    // … and exit 2 (restarted) when it has nothing yet
    fs.rmSync(path.join(away.home, "root"), { recursive: true });
    expect(away.run().status).toBe(2);
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
    // install into a temp root with a fake curl that records what the wrapper asks for
    const root = path.join(dir, "root");
    const bin = path.join(dir, "bin");
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(
      path.join(bin, "curl"),
      `#!/bin/sh\nprintf '%s\\n' "$@" >> "${dir}/curl.log"\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && printf 'gone' > "$2"; shift; done\nprintf 401\n`,
      { mode: 0o755 },
    );
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, BURROW_PREFIX: root, BURROW_SYSTEMCTL: "true" };
    execFileSync("dash", ["-s"], { input: install, env, cwd: dir });
    const wrapper = path.join(root, "usr/local/lib/burrow/frpc-start-7");
    expect(fs.statSync(wrapper).mode & 0o777).toBe(0o700);
    const unit = fs.readFileSync(path.join(root, "etc/systemd/system/burrow-frpc-7.service"), "utf8");
    expect(unit).toContain(`RestartPreventExitStatus=${REFUSED_EXIT}`);
    expect(unit.split("\n").filter((l) => l.startsWith("Description="))).toHaveLength(1);
    expect(unit).toContain("%%i");
    const run = spawnSync("dash", [wrapper], { env, cwd: dir, encoding: "utf8" });
    expect(run.status).toBe(REFUSED_EXIT);
    expect(run.stderr).toContain("gone");
    const asked = fs.readFileSync(path.join(dir, "curl.log"), "utf8").split("\n");
    expect(asked).toContain(`${launchBase(hostile)}/frpc?os=linux&arch=${arch()}`);
    expect(fs.existsSync(path.join(dir, "pwned"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "pwned2"))).toBe(false);
    // OpenWrt's branch writes a procd script instead
    execFileSync("dash", ["-s"], { input: install, env: { ...env, BURROW_SYSTEM: "openwrt" }, cwd: dir });
    const procd = fs.readFileSync(path.join(root, "etc/init.d/burrow-frpc-7"), "utf8");
    expect(procd).toContain("procd_set_param command /usr/local/lib/burrow/frpc-start-7");
    expect(dashOk(procd.replace(/^#!.*\n/, ""))).toBe(0);
    // macOS: a launchd plist, the launchctl command overridable
    execFileSync("dash", ["-s"], { input: install, env: { ...env, BURROW_SYSTEM: "macos", BURROW_LAUNCHCTL: "true" } });
    const plist = fs.readFileSync(path.join(root, "Library/LaunchDaemons/com.burrow.frpc-7.plist"), "utf8");
    expect(plist).toContain("<key>KeepAlive</key><true/>");
    expect(fs.existsSync(path.join(dir, "pwned"))).toBe(false);
  });

  it("the one-line commands quote the address for their shell", () => {
    const cmds = launchCommands(hostile);
    for (const sys of ["linux", "openwrt", "macos"] as const) {
      expect(dashOk(cmds[sys])).toBe(0);
      // the quoted URL, echoed by dash, is the address itself
      const url = /'(?:[^']|'\\'')*'/.exec(cmds[sys])?.[0] ?? "";
      expect(execFileSync("dash", ["-c", `printf %s ${url}`], { encoding: "utf8" })).toBe(
        `${launchBase(hostile)}/install.sh`,
      );
    }
    expect(dashOk(cmds.docker)).toBe(0);
    expect(cmds.windows).toBe(`irm '${launchBase(hostile).replaceAll("'", "''")}/install.ps1' | iex`);
  });

  it("install.ps1: every value single-quoted for PowerShell, the here-string closed only where meant", () => {
    const ps = installPs1(hostile);
    const lines = ps.split("\n");
    expect(lines.filter((l) => l.startsWith("'@"))).toHaveLength(1);
    expect(ps).toContain(`$Api = '${launchBase(hostile).replaceAll("'", "''")}'`);
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
