import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../src/config";

/**
 * The deployment files (Dockerfile, docker-compose.yml, deploy/burrow.service) cannot be run here
 * (no Docker engine, no systemd): this checks that what they name exists — every path the
 * Dockerfile copies from the tree, the entry point, the health endpoint, the scripts — so that
 * a move or a rename breaks a test instead of a deployment.
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");

/** The Dockerfile's instructions, continuation lines joined. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(" ") };
    });
}

describe("Dockerfile", () => {
  const ins = instructions(read("Dockerfile"));

  it("copies only paths that exist in the tree, and none that .dockerignore hides", () => {
    const ignored = read(".dockerignore");
    const copies = ins.filter((i) => i.op === "COPY" && !i.args.startsWith("--from"));
    expect(copies.length).toBeGreaterThan(5);
    for (const c of copies) {
      const parts = c.args.split(/\s+/);
      for (const src of parts.slice(0, -1)) {
        expect(fs.existsSync(path.join(ROOT, src)), `COPY ${src}`).toBe(true);
        expect(ignored.split("\n").includes(src), `${src} is in .dockerignore`).toBe(false);
      }
    }
    // Every workspace's package.json is copied before npm ci (the lock file names them all).
    const workspaces = (JSON.parse(read("package.json")) as { workspaces: string[] }).workspaces;
    for (const w of workspaces) expect(read("Dockerfile")).toContain(`COPY ${w}/package.json ${w}/`);
  });

  it("builds in stages and runs as a non-root user the server's entry point, with a /readyz health check", () => {
    expect(ins.filter((i) => i.op === "FROM").length).toBeGreaterThanOrEqual(2);
    const user = ins.filter((i) => i.op === "USER").at(-1);
    expect(user?.args).toBe("node");
    const cmd = JSON.parse(ins.filter((i) => i.op === "CMD").at(-1)?.args ?? "[]") as string[];
    expect(cmd[0]).toBe("node");
    expect(cmd.join(" ")).toContain("--import tsx");
    expect(cmd).toContain("--max-semi-space-size=64");
    expect(fs.existsSync(path.join(ROOT, cmd.at(-1) as string))).toBe(true);
    expect(ins.find((i) => i.op === "HEALTHCHECK")?.args).toContain("/readyz");
    // The web build it serves is where WEB_DIST says.
    const env = ins
      .filter((i) => i.op === "ENV")
      .map((i) => i.args)
      .join(" ");
    expect(env).toContain("WEB_DIST=/app/apps/web/dist");
    expect(read("Dockerfile")).toContain("COPY --from=web /app/apps/web/dist apps/web/dist");
    // The runtime needs tsx, a production dependency of the server.
    const server = JSON.parse(read("apps/server/package.json")) as { dependencies: Record<string, string> };
    expect(server.dependencies.tsx).toBeDefined();
  });
});

describe("docker-compose.yml", () => {
  const compose = read("docker-compose.yml");
  it("runs Burrow, PostgreSQL and Redis with volumes and health checks (Burrow's on /readyz)", () => {
    for (const s of ["postgres:", "redis:", "burrow:"]) expect(compose).toContain(`\n  ${s}`);
    expect(compose).toContain("build: .");
    expect(compose.match(/healthcheck:/g)).toHaveLength(3);
    expect(compose).toContain("/readyz");
    expect(compose).toContain("condition: service_healthy");
    for (const v of ["pgdata:", "redisdata:", "burrowdata:"]) expect(compose).toContain(`\n  ${v}`);
    expect(compose).toContain("DATABASE_URL: postgres://");
    expect(compose).toContain("REDIS_URL: redis://");
  });

  it("sets only variables the server knows", () => {
    const known = new Set(Object.keys(ConfigSchema.shape));
    const env = compose.slice(compose.indexOf("    environment:", compose.indexOf("  burrow:")));
    const block = env.slice(0, env.indexOf("    ports:"));
    for (const m of block.matchAll(/^\s{6}([A-Z_]+):/gm)) expect(known.has(m[1]), m[1]).toBe(true);
    for (const m of read("deploy/burrow.env.example").matchAll(/^([A-Z_]+)=/gm))
      expect(known.has(m[1]) || m[1] === "POSTGRES_PASSWORD", m[1]).toBe(true);
  });
});

describe("deploy/burrow.service", () => {
  const unit = read("deploy/burrow.service");
  it("starts the server's entry point and stops it with SIGTERM within the drain time", () => {
    const exec = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? "";
    const entry = exec.split(/\s+/).at(-1) as string;
    expect(fs.existsSync(path.join(ROOT, entry))).toBe(true);
    expect(exec).toContain("--import tsx");
    expect(exec).toContain("--max-semi-space-size=64");
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    const stop = Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1]);
    const drain = Number(/SHUTDOWN_TIMEOUT=(\d+)/.exec(unit)?.[1]);
    expect(drain).toBeLessThan(stop);
    for (const m of (/^Environment=(.*)$/m.exec(unit)?.[1] ?? "").matchAll(/([A-Z_]+)=/g))
      expect(Object.keys(ConfigSchema.shape)).toContain(m[1]);
  });

  it("npm run backup and restore exist as docs/deploy.md says", () => {
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.backup).toContain("apps/server/src/cli/backup.ts");
    expect(scripts.restore).toContain("apps/server/src/cli/backup.ts");
    const deploy = read("docs/deploy.md");
    for (const s of ["npm run backup", "npm run restore", "pg_dump", "pg_restore", "/readyz", "deploy/burrow.service"])
      expect(deploy).toContain(s);
  });
});
