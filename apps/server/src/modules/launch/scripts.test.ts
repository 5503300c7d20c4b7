import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installScript, launchBase, startScript } from "./posix-scripts";
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
    expect(unit).toContain("RestartPreventExitStatus=1");
    expect(unit.split("\n").filter((l) => l.startsWith("Description="))).toHaveLength(1);
    expect(unit).toContain("%%i");
    const run = spawnSync("dash", [wrapper], { env, cwd: dir, encoding: "utf8" });
    expect(run.status).toBe(1);
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
