import type { AdminNodeDetail, AdminTunnelRow, Paged } from "@burrow/contract";
import { Role, UserStatus } from "@burrow/contract";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { dropPhone, onlyOn, TEST_DIALECT, type TestApp } from "../../../test/harness";
import { direct, transact } from "../../shared/tx";
import { hasPhone, NO_PHONE_PREFIX } from "./users.presenter";
import { insertUser, uidsWithPhoneContaining, updateUserRow } from "./users.repository";

/**
 * The operator's phone search (a "contains"), answered from a trigram index on both databases
 * (migration 2026-11-25T06-00_phone_search): the index must find what a plain scan finds, stay in
 * step with every write of users.phone, and keep "%" and "_" literal.
 */
let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
adminSuite((ready) => ({ t, admin } = ready));
beforeAll(async () => {
  node = await createTestNode(t, { host: "203.0.113.61" }, admin);
});

const sorted = (uids: number[]) => [...uids].sort((a, b) => a - b);

/** The uids the search finds (through the index where it applies). */
async function found(text: string): Promise<number[]> {
  return sorted((await uidsWithPhoneContaining(t.db, text).execute()).map((r) => r.uid));
}

/** What a search for `text` must find: every user with a real phone containing it, literally. */
async function expected(text: string): Promise<number[]> {
  const all = await t.db.selectFrom("users").select(["uid", "phone"]).execute();
  return sorted(all.filter((u) => hasPhone(u.phone) && u.phone.includes(text)).map((u) => u.uid));
}

/** The operator's user list filtered by phone, every match on one page. */
async function userList(phone: string): Promise<number[]> {
  const r = await t.api<Paged<{ uid: number }>>("GET", "/super/user/list", {
    token: admin,
    query: { phone, size: 100 },
  });
  expect(r.body.data.total).toBe(r.body.data.list.length);
  return sorted(r.body.data.list.map((u) => u.uid));
}

/** The operator's tunnel list filtered by phone: the rows' [tun_id, owner's phone], and the total. */
async function tunnelList(phone: string, size = 100): Promise<{ rows: [number, string][]; total: number }> {
  const r = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", { token: admin, query: { phone, size } });
  return { rows: r.body.data.list.map((x) => [x.tun_id, x.phone]), total: r.body.data.total };
}

async function setPhone(uid: number, phone: string): Promise<void> {
  await updateUserRow(direct(t.ctx), uid, { phone });
}

/** SQLite: the index agrees with its content table (FTS5 compares every row; throws when not). */
async function indexInStep(): Promise<void> {
  if (TEST_DIALECT === "sqlite")
    await sql`insert into users_phone_fts (users_phone_fts, rank) values ('integrity-check', 1)`.execute(t.db);
}

describe("phone search", () => {
  it("finds a phone by a part in the middle, its start, its end, and by one or two digits", async () => {
    const a = await t.register("13712345678");
    const b = await t.register("15887654321");
    const c = await t.register("13912300000");
    const cases: [string, number[]][] = [
      ["234567", [a.uid]],
      ["137", [a.uid]],
      ["5678", [a.uid]],
      ["4321", [b.uid]],
      ["15887654321", [b.uid]],
      ["123", [a.uid, c.uid]],
      ["87", [b.uid]],
      ["9", [c.uid]],
      ["2345670", []],
    ];
    for (const [text, must] of cases) {
      const want = await expected(text);
      for (const uid of must) expect(want, text).toContain(uid);
      for (const other of [a.uid, b.uid, c.uid].filter((u) => !must.includes(u)))
        expect(want, text).not.toContain(other);
      expect([text, await found(text)]).toEqual([text, want]);
      expect([text, await userList(text)]).toEqual([text, want]);
    }
    await indexInStep();
  });

  it('takes "%" and "_" literally, through the index and without it', async () => {
    const d = await t.register();
    const e = await t.register();
    // Not phones a customer can bind; written directly, to see that the pattern stays literal.
    await setPhone(d.uid, "777%_888");
    await setPhone(e.uid, "777ab888");
    await createTestTunnel(t, (await customer(d)).token, { node_id: node.node_id });
    await createTestTunnel(t, (await customer(e)).token, { node_id: node.node_id });
    // "777%_888" has a 3-character run (the index's prefilter, where "%" and "_" are wildcards
    // that also match "777ab888"); "7%_8" has none (a scan).
    for (const text of ["777%_888", "7%_8", "%_"]) expect([text, await found(text)]).toEqual([text, [d.uid]]);
    for (const text of ["7ab8", "777ab"]) expect([text, await found(text)]).toEqual([text, [e.uid]]);
    // As wildcards, "_" would match e's "a": through the index and without it.
    for (const text of ["777_b888", "77_ab"]) expect([text, await found(text)]).toEqual([text, []]);
    // The tunnel list takes the text as it is (the user list keeps digits only).
    const byTunnel = await tunnelList("777%_888");
    expect(byTunnel.rows.map(([, phone]) => phone)).toEqual(["777%_888"]);
    expect(byTunnel.total).toBe(1);
    await indexInStep();
  });

  it("never finds an account without a phone, however it got its placeholder", async () => {
    const dropped = await t.register("13655501234");
    await dropPhone(t, dropped.uid); // "nophone:x13655501234": the old digits stay in the placeholder
    // A third-party sign-in inserts the account with its placeholder (oidc.service registerPending).
    const fresh = await transact(t.ctx, (trx) =>
      insertUser(trx, {
        phone: `${NO_PHONE_PREFIX}13655509876`,
        password_hash: "",
        role: Role.Customer,
        status: UserStatus.Active,
        ban_reason: null,
        nickname: "oidc",
        frp_token: "phone-search-oidc-token",
        invite_code: "PHSRCH01",
        referrer_uid: null,
        real_name: null,
        id_number_masked: null,
        created_at: new Date().toISOString(),
        last_login_at: null,
      }),
    );
    for (const text of ["13655501234", "136555", "555", "55", "5", "nophone", "phone:x1", "ph"]) {
      const hits = await found(text);
      expect([text, hits.includes(dropped.uid), hits.includes(fresh)]).toEqual([text, false, false]);
      expect([text, hits]).toEqual([text, await expected(text)]);
    }
    await indexInStep();
  });

  it("follows every write of a phone: registration, a change, binding one to an account without, a deleted row", async () => {
    const u = await t.register("13566601111");
    expect(await found("666011")).toEqual([u.uid]);

    // The customer moves to a new number (POST /user/phone).
    const moved = "13566602222";
    await t.api("POST", "/auth/sms", { body: { phone: moved, scene: "phone" } });
    const r = await t.api("POST", "/user/phone", { token: u.token, body: { phone: moved, code: t.sms.last(moved) } });
    expect(r.body.code).toBe("SUCCESS");
    expect(await found("666011")).toEqual([]);
    expect(await found("666022")).toEqual([u.uid]);
    expect(await userList("666022")).toEqual([u.uid]);

    // An account without a phone binds one the same way.
    await dropPhone(t, u.uid);
    expect(await found("666022")).toEqual([]);
    const bound = "13566603333";
    await t.api("POST", "/auth/sms", { body: { phone: bound, scene: "phone" } });
    await t.api("POST", "/user/phone", { token: u.token, body: { phone: bound, code: t.sms.last(bound) } });
    expect(await found("666033")).toEqual([u.uid]);

    // An operator's edit (no phone in it) and the money paths' row lock leave the entry as it is.
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: u.uid, nickname: "renamed" } });
    await t.api("PATCH", "/super/user/info", {
      token: admin,
      body: { uid: u.uid, balance_change: 100, balance_reason: "test" },
    });
    expect(await found("666033")).toEqual([u.uid]);

    // No path deletes a user today; a row deleted by hand leaves the index too.
    const gone = await t.register("13566604444");
    expect(await found("666044")).toEqual([gone.uid]);
    await t.db.deleteFrom("users").where("uid", "=", gone.uid).execute();
    expect(await found("666044")).toEqual([]);
    await indexInStep();
  });

  it("filters the tunnel list by its owner's phone, and its total agrees", async () => {
    const owners = [await customer(await t.register("18844400001")), await customer(await t.register("18844400002"))];
    const other = await customer(await t.register("18855500001"));
    const tunnels: number[] = [];
    for (const o of owners)
      for (let i = 0; i < 2; i++) tunnels.push((await createTestTunnel(t, o.token, { node_id: node.node_id })).tun_id);
    await createTestTunnel(t, other.token, { node_id: node.node_id });
    // A deleted tunnel is left out, as without the filter.
    const del = await t.api("DELETE", "/user/tun", { token: owners[0].token, body: { tun_id: tunnels[0] } });
    expect(del.body.code).toBe("SUCCESS");

    for (const [text, size] of [
      ["8844400", 100],
      ["8844400", 1],
      ["884440000", 100], // 9 digits: through the index
      ["84", 100], // 2 digits: a scan
    ] as const) {
      const want = tunnels.slice(1).sort((x, y) => y - x);
      const got = await tunnelList(text, size);
      expect([text, got.total]).toEqual([text, want.length]);
      expect([text, got.rows]).toEqual([
        text,
        want.slice(0, size).map((id) => [id, id === tunnels[1] ? "18844400001" : "18844400002"]),
      ]);
    }
    expect((await tunnelList("8845")).total).toBe(0);
  });

  it(
    "SQLite reads the trigram index for 3 characters or more, and scans for fewer",
    onlyOn("sqlite", "it reads SQLite's query plan of the FTS5 trigram table"),
    async () => {
      const plan = async (text: string) => {
        const q = uidsWithPhoneContaining(t.db, text).compile();
        const rows = await t.db.executeQuery<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` });
        return rows.rows.map((r) => r.detail).join(" | ");
      };
      expect(await plan("1390004")).toMatch(/SCAN users_phone_fts VIRTUAL TABLE INDEX 0:L/);
      expect(await plan("1390004")).toMatch(/SEARCH users USING INTEGER PRIMARY KEY/);
      expect(await plan("13")).not.toContain("users_phone_fts");
    },
  );

  it(
    "PostgreSQL's ILIKE can use the trigram index",
    onlyOn("postgres", "it reads PostgreSQL's plan of the pg_trgm GIN index"),
    async () => {
      // A handful of rows: the planner would scan them anyway; forbidding the scan shows the index applies.
      const q = uidsWithPhoneContaining(t.db, "1390004").compile();
      const plan = await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return trx.executeQuery<{ "QUERY PLAN": string }>({ ...q, sql: `explain ${q.sql}` });
      });
      expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/Bitmap Index Scan on users_phone_trgm/);
    },
  );
});

/** A registered customer with a plan, so that they may create tunnels. */
async function customer<U extends { uid: number; token: string }>(u: U): Promise<U> {
  await setPlan(t, u.uid);
  return u;
}
