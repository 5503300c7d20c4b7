import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { resetPassword, UnknownAccountError } from "../src/cli/reset-password";
import { loadConfig } from "../src/config";
import { adminPasswordIgnored } from "../src/seed";
import { ADMIN_PASSWORD, ADMIN_PHONE, createTestApp, nextPhone, type TestApp } from "./harness";

const serverDir = fileURLToPath(new URL("..", import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function app(): Promise<TestApp> {
  const t = await createTestApp();
  cleanups.push(() => t.close());
  return t;
}

describe("npm run admin -- reset-password", () => {
  it("sets a new password, signs out every session of the account, refuses the old password", async () => {
    const t = await app();
    const user = await t.register(nextPhone(), "old-password-1");
    const second = await t.login(user.phone, "old-password-1");
    const admin = await t.adminToken();

    const { uid, password } = await resetPassword(t.ctx, user.phone);
    expect(uid).toBe(user.uid);
    expect(password.length).toBeGreaterThanOrEqual(12);

    for (const token of [user.token, second]) {
      const r = await t.api("GET", "/user/userInfo", { token });
      expect(r.status).toBe(401);
    }
    const old = await t.api("POST", "/auth/login", { body: { phone: user.phone, password: "old-password-1" } });
    expect(old.body.code).not.toBe("SUCCESS");
    const fresh = await t.login(user.phone, password);
    expect((await t.api("GET", "/user/userInfo", { token: fresh })).status).toBe(200);
    // Nobody else was signed out.
    expect((await t.api("GET", "/user/userInfo", { token: admin })).status).toBe(200);
    const row = await t.db
      .selectFrom("audit_logs")
      .select(["action", "target", "ip"])
      .where("target", "=", `user:${uid}`)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ action: "user.resetPassword", target: `user:${uid}`, ip: "cli" });
  });

  it("names an unknown phone and changes nothing", async () => {
    const t = await app();
    const admin = await t.adminToken();
    await expect(resetPassword(t.ctx, "13999999999")).rejects.toBeInstanceOf(UnknownAccountError);
    expect((await t.api("GET", "/user/userInfo", { token: admin })).status).toBe(200);
    await t.login(ADMIN_PHONE, ADMIN_PASSWORD);
  });
});

describe("the operator's first days (SQLite data directory, as `npm start` uses)", () => {
  it("the command prints a working password once; a later start with ADMIN_PASSWORD says it is ignored and names the command", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-admin-cli-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
    const env = {
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      ADMIN_PHONE: "13700000001",
      ADMIN_PASSWORD: "first-start-pass",
      LOG_LEVEL: "info",
      WEB_DIST: path.join(dataDir, "no-web"),
    };
    const start = async () => {
      const lines: string[] = [];
      const logger = pino({ level: "info" }, { write: (s: string) => lines.push(s) });
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = (() => true) as typeof process.stdout.write; // the first start's banner
      try {
        const { app } = await buildApp(loadConfig(env), { logger });
        await app.ready();
        return { app, lines };
      } finally {
        process.stdout.write = write;
      }
    };

    const first = await start();
    expect(first.lines.join("")).not.toContain("ADMIN_PASSWORD is ignored");
    await first.app.close();

    const cli = spawnSync("npx", ["tsx", "src/cli/admin.ts", "reset-password", env.ADMIN_PHONE], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(cli.status, cli.stderr).toBe(0);
    const printed = /New password for 13700000001: (\S+)/.exec(cli.stdout)?.[1];
    expect(printed).toBeDefined();

    const second = await start();
    cleanups.push(() => second.app.close());
    const warned = second.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === adminPasswordIgnored("13700000001"));
    expect(warned).toHaveLength(1);
    expect(warned[0].msg).toContain("npm run admin -- reset-password 13700000001");
    const login = (password: string) =>
      second.app.inject({ method: "POST", url: "/api/auth/login", payload: { phone: env.ADMIN_PHONE, password } });
    expect((await login(printed as string)).json().code).toBe("SUCCESS");
    expect((await login(env.ADMIN_PASSWORD)).json().code).not.toBe("SUCCESS");

    const unknown = spawnSync("npx", ["tsx", "src/cli/admin.ts", "reset-password", "13999999999"], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      encoding: "utf8",
    });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("No account has the phone number 13999999999");
  }, 120_000);
});
