import {
  NodeStatus,
  type SetupChecklist,
  type SetupItemKey,
  SetupItemKeys,
  type SiteInfo,
  type UserNodeRow,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { makePlan } from "../../../test/store-fixtures";
import { publicUrlWarning } from "../../config";
import { direct } from "../../shared/tx";
import { setNodeHealth } from "../nodes/nodes.service";

const ENV_KEYS: SetupItemKey[] = ["public_url", "payment", "sms", "verify"];
const DB_KEYS: SetupItemKey[] = ["node_online", "plan_on_sale", "downloads", "oidc"];

async function checklist(t: TestApp, token: string): Promise<SetupChecklist> {
  const r = await t.api<SetupChecklist>("GET", "/super/setup", { token });
  expect(r.body.code).toBe("SUCCESS");
  return r.body.data;
}

/** The keys of the lines done. */
const doneKeys = (c: SetupChecklist) =>
  c.items
    .filter((i) => i.done)
    .map((i) => i.key)
    .sort();

/** Brings the database lines to done one by one through the owners' paths, checking each flips alone. */
async function completeDatabaseLines(t: TestApp, admin: string, before: SetupItemKey[]): Promise<void> {
  const done = [...before];
  const expectDone = async (key: SetupItemKey) => {
    done.push(key);
    expect(doneKeys(await checklist(t, admin))).toEqual([...done].sort());
  };

  // A plan not on sale is no plan on sale.
  await makePlan(t, { on_sale: false });
  expect(doneKeys(await checklist(t, admin))).toEqual([...done].sort());
  await makePlan(t, { on_sale: true });
  await expectDone("plan_on_sale");

  const dl = await t.api("POST", "/super/download", {
    token: admin,
    body: {
      os: "linux",
      arch: "amd64",
      version: "0.61.0",
      url: "https://dl.example.com/frp_0.61.0_linux_amd64.tar.gz",
      checksum: "a".repeat(64),
    },
  });
  expect(dl.body.code).toBe("SUCCESS");
  await expectDone("downloads");

  // A disabled provider is no sign-in option.
  const provider = {
    issuer: "https://id.example.com",
    client_id: "burrow",
    client_secret: "secret-0123456789",
    scopes: "openid profile",
  };
  const off = await t.api("POST", "/super/oidc", {
    token: admin,
    body: { ...provider, name: "停用的", enabled: false },
  });
  expect(off.body.code).toBe("SUCCESS");
  expect(doneKeys(await checklist(t, admin))).toEqual([...done].sort());
  const on = await t.api("POST", "/super/oidc", {
    token: admin,
    body: { ...provider, name: "企业账号", enabled: true },
  });
  expect(on.body.code).toBe("SUCCESS");
  await expectDone("oidc");

  // The seeded node comes online as the poller would mark it.
  const node = await t.db.selectFrom("nodes").select("node_id").executeTakeFirstOrThrow();
  await setNodeHealth(direct(t.ctx), node.node_id, NodeStatus.Online);
  await expectDone("node_online");
}

describe("set-up checklist on a fresh install (no PUBLIC_URL, sandbox payment and verification, console SMS)", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  it("lists every line as not done, each linking to its page or naming its environment variables", async () => {
    const c = await checklist(t, admin);
    expect(c.items.map((i) => i.key)).toEqual(SetupItemKeys);
    expect(c).toMatchObject({ done: false, dismissed: false, show: true });
    expect(doneKeys(c)).toEqual([]);
    const fix = Object.fromEntries(c.items.map((i) => [i.key, i.fix]));
    expect(fix).toMatchObject({
      public_url: { env: ["PUBLIC_URL"] },
      node_online: { page: "/node" },
      plan_on_sale: { page: "/plan" },
      downloads: { page: "/download" },
      payment: { env: ["EPAY_URL", "EPAY_PID", "EPAY_KEY"] },
      sms: { env: ["SMS_DRIVER", "SMS_HTTP_URL", "SMS_HTTP_TOKEN"] },
      oidc: { page: "/oidc" },
    });
    for (const key of ENV_KEYS) expect(fix[key]).toMatchObject({ doc: "docs/deploy.md#set-up-checklist" });
    expect(c.items.find((i) => i.key === "public_url")?.detail).toContain("未设置 PUBLIC_URL");
  });

  it("is for managers only", async () => {
    const u = await t.register();
    const r = await t.api("GET", "/super/setup", { token: u.token });
    expect(r.status).toBe(403);
    const d = await t.api("POST", "/super/setup", { token: u.token, body: { dismissed: true } });
    expect(d.status).toBe(403);
  });

  it("turns each database line done when its condition is met, the environment lines staying open", async () => {
    await completeDatabaseLines(t, admin, []);
    const c = await checklist(t, admin);
    expect(doneKeys(c)).toEqual([...DB_KEYS].sort());
    expect(c.show).toBe(true);
  });

  it("can be hidden before it is done (persisted, audited) and shown again; a bad body changes nothing", async () => {
    const bad = await t.api("POST", "/super/setup", { token: admin, body: { dismissed: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(10000);
    expect(bad.body.msg).toContain("dismissed");
    expect((await checklist(t, admin)).dismissed).toBe(false);

    const hidden = await t.api<SetupChecklist>("POST", "/super/setup", { token: admin, body: { dismissed: true } });
    expect(hidden.body.data).toMatchObject({ dismissed: true, show: false, done: false });
    expect(await checklist(t, admin)).toMatchObject({ dismissed: true, show: false });
    const rows = await t.db
      .selectFrom("audit_logs")
      .select(["action", "target"])
      .where("target", "=", "setup")
      .execute();
    expect(rows.map((r) => r.action)).toEqual(["setup.dismiss"]);

    const shown = await t.api<SetupChecklist>("POST", "/super/setup", { token: admin, body: { dismissed: false } });
    expect(shown.body.data).toMatchObject({ dismissed: false, show: true });
    expect(await checklist(t, admin)).toMatchObject({ dismissed: false, show: true });
  });

  it("tells the web that PUBLIC_URL is missing, and customers never read developer text about the seeded node", async () => {
    const site = await t.api<SiteInfo>("GET", "/public/site");
    expect(site.body.data.public_url).toBeNull();
    const u = await t.register();
    const nodes = await t.api<{ list: UserNodeRow[] }>("GET", "/user/node", { token: u.token });
    expect(nodes.body.code).toBe("SUCCESS");
    const seeded = nodes.body.data.list.find((n) => n.name === "本地节点");
    expect(seeded?.description).toBeTruthy();
    expect(seeded?.description).not.toMatch(/frps|模拟器|仓库|127\.0\.0\.1/);
  });
});

describe("set-up checklist with the environment configured", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({
      PUBLIC_URL: "https://console.example.com/",
      EPAY_URL: "https://pay.example.com",
      EPAY_PID: "1001",
      EPAY_KEY: "epay-key-0123456789",
      SMS_DRIVER: "http",
      SMS_HTTP_URL: "https://sms.example.com/send",
      VERIFY_PROVIDER: "manual",
    });
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  it("counts PUBLIC_URL, epay, the http SMS driver and a non-sandbox verification as done", async () => {
    const c = await checklist(t, admin);
    expect(doneKeys(c)).toEqual([...ENV_KEYS].sort());
    expect(c.items.find((i) => i.key === "public_url")?.detail).toContain("https://console.example.com/");
    const site = await t.api<SiteInfo>("GET", "/public/site");
    expect(site.body.data.public_url).toBe("https://console.example.com");
  });

  it("disappears once every line is done", async () => {
    await completeDatabaseLines(t, admin, ENV_KEYS);
    expect(await checklist(t, admin)).toMatchObject({ done: true, dismissed: false, show: false });
  });
});

describe("the start warning about PUBLIC_URL", () => {
  it("names what breaks when PUBLIC_URL is unset outside tests, and says nothing otherwise", () => {
    for (const NODE_ENV of ["development", "production"] as const) {
      const w = publicUrlWarning({ NODE_ENV, PUBLIC_URL: undefined });
      expect(w).toMatch(/^PUBLIC_URL is not set/);
      expect(w).toContain("plugin address");
      expect(w).toContain("OIDC");
      expect(w).toContain("payment gateway");
    }
    expect(publicUrlWarning({ NODE_ENV: "production", PUBLIC_URL: "https://console.example.com" })).toBeUndefined();
    expect(publicUrlWarning({ NODE_ENV: "test", PUBLIC_URL: undefined })).toBeUndefined();
  });
});
