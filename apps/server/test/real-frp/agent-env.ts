import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sleep } from "./frp-env";

/**
 * The node agent as the console's installer runs it: the env file and systemd unit are read out of
 * the one-line installer (`NodeSetup.agent_install`), and a tiny supervisor with systemd's
 * Restart=/RestartSec= semantics stands in for systemd, which does not run on the test machine.
 */

/** The values of a `printf '%s\n' 'a' 'b' > file` segment of the installer, single-quote unescaped. */
function printed(install: string, file: string): string[] {
  const seg = install.split(" && ").find((s) => s.startsWith("printf ") && s.endsWith(`> ${file}`));
  if (!seg) throw new Error(`the installer writes no ${file}:\n${install}`);
  return [...seg.matchAll(/'((?:[^']|'\\'')*)'/g)].slice(1).map((m) => m[1].replaceAll("'\\''", "'"));
}

export interface AgentInstall {
  /** /etc/burrow-agent.env as the installer writes it */
  env: Record<string, string>;
  /** /etc/systemd/system/burrow-agent.service, line for line */
  unit: string;
  /** the bundle's URL the installer downloads */
  bundleUrl: string;
}

export function parseInstaller(install: string): AgentInstall {
  const env = Object.fromEntries(
    printed(install, "/etc/burrow-agent.env").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  const unit = `${printed(install, "/etc/systemd/system/burrow-agent.service").join("\n")}\n`;
  const bundleUrl = /curl -fsSL '([^']+)'/.exec(install)?.[1];
  if (!bundleUrl) throw new Error(`the installer downloads no bundle:\n${install}`);
  return { env, unit, bundleUrl };
}

/** `systemd-analyze verify` of the unit, or null when systemd-analyze is not installed. */
export function verifyUnit(unit: string, dir: string): { status: number | null; output: string } | null {
  if (spawnSync("systemd-analyze", ["--version"]).error) return null;
  const file = path.join(dir, "burrow-agent.service");
  fs.writeFileSync(file, unit);
  const r = spawnSync("systemd-analyze", ["verify", file], { encoding: "utf8", timeout: 30_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** One [Service] key of the unit (the last one wins, as in systemd). */
function unitKey(unit: string, key: string): string | undefined {
  return unit
    .split("\n")
    .filter((l) => l.startsWith(`${key}=`))
    .at(-1)
    ?.slice(key.length + 1);
}

export interface Supervised {
  /** how many times the process was started */
  starts(): number;
  /** everything the agent printed, all runs */
  log(): string;
  /** the agent's JSON log lines (all runs) */
  lines(): { time: string; msg: string; [k: string]: unknown }[];
  /** a signal to the running process (SIGKILL: a crash; the supervisor restarts it) */
  signal(sig: NodeJS.Signals): void;
  /** stops supervising and the process (systemctl stop) */
  stop(): Promise<void>;
}

/**
 * Runs the unit's ExecStart with its Environment= lines, the env file and `overrides`, restarting
 * it as systemd does for Restart=always (any exit) after RestartSec. `paths` maps absolute paths of
 * the node (the bundle under /usr/local/lib) to where the test put them.
 */
export function supervise(unit: string, env: Record<string, string>, paths: Record<string, string>): Supervised {
  const exec = unitKey(unit, "ExecStart");
  if (!exec) throw new Error(`the unit has no ExecStart:\n${unit}`);
  const restart = unitKey(unit, "Restart") ?? "no";
  const restartSec = Number(unitKey(unit, "RestartSec") ?? "0.1");
  if (restart !== "always") throw new Error(`the supervisor mirrors Restart=always only, the unit says ${restart}`);
  const unitEnv = Object.fromEntries(
    unit
      .split("\n")
      .filter((l) => l.startsWith("Environment="))
      .map((l) => l.slice("Environment=".length).split("=") as [string, string]),
  );
  const [cmd, ...args] = exec.split(" ").map((a) => paths[a] ?? a);
  let out = "";
  let starts = 0;
  let stopped = false;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const start = () => {
    starts++;
    const c = spawn(cmd, args, {
      env: { PATH: process.env.PATH, ...unitEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = c;
    c.stdout?.on("data", (d) => {
      out += d;
    });
    c.stderr?.on("data", (d) => {
      out += d;
    });
    exited = new Promise((resolve) =>
      c.once("exit", () => {
        resolve();
        if (!stopped) setTimeout(() => !stopped && start(), restartSec * 1000);
      }),
    );
  };
  start();
  return {
    starts: () => starts,
    log: () => out,
    lines: () =>
      out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .flatMap((l) => {
          try {
            return [JSON.parse(l)];
          } catch {
            return [];
          }
        }),
    signal: (sig) => child?.kill(sig),
    async stop() {
      stopped = true;
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.race([exited, sleep(5_000)]);
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
