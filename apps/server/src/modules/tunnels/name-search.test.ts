import type { AdminNodeDetail, AdminTunnelRow, Paged, TunnelView } from "@burrow/contract";
import { type CompiledQuery, sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { catchWarnings, onlyOn, TEST_DIALECT, type TestApp } from "../../../test/harness";
import * as nameSearch from "../../db/migrations/2026-11-25T08-00_tunnel_name_search";

/**
 * The tunnel search by name (a "contains"), answered from a trigram index on both databases
 * (migration 2026-11-25T08-00_tunnel_name_search): it must find what a plain scan finds, in the
 * operators' list and the customer's own, stay in step with every write of a name, and keep "%"
 * and "_" literal.
 */
let t: TestApp;
let admin: string;
let node: AdminNodeDetail;
let owner: { uid: number; token: string };
const tunnels: TunnelView[] = [];

// Indexes 0–9 stay; the last is deleted. "web_server9" / "webXserver9": "_" must stay literal where the index answers.
const NAMES = [
  "web-server",
  "Web-Admin",
  "WEBCAM",
  "数据库主机",
  "备用数据库",
  "a_bc",
  "axbc",
  "ssh",
  "web_server9",
  "webXserver9",
  "deleted-web",
];

adminSuite((ready) => ({ t, admin } = ready));
beforeAll(async () => {
  node = await createTestNode(t, { host: "203.0.113.71" }, admin);
  owner = await t.register();
  await setPlan(t, owner.uid, { tunnel_limit: 50 });
  for (const tun_name of NAMES)
    tunnels.push(await createTestTunnel(t, owner.token, { node_id: node.node_id, tun_name }));
  const del = await t.api("DELETE", "/user/tun", { token: owner.token, body: { tun_id: tunnels.at(-1)?.tun_id } });
  expect(del.body.code).toBe("SUCCESS");
});

/** The operators' list filtered by name: tun_ids, newest first, and the total. */
async function search(name: string, path = "/super/tun/list", token = admin) {
  const r = await t.api<Paged<AdminTunnelRow>>("GET", path, { token, query: { name, size: 100 } });
  expect(r.status).toBe(200);
  expect(r.body.data.total).toBe(r.body.data.list.length);
  return r.body.data.list.map((x) => x.tun_id);
}

/** What a search must find: every live tunnel whose name contains `text`, ASCII case aside, literally. */
async function expected(text: string): Promise<number[]> {
  const rows = await t.db
    .selectFrom("tunnels")
    .select(["tun_id", "tun_name", "status"])
    .where("status", "<>", -1)
    .execute();
  return rows
    .filter((r) => r.tun_name.toLowerCase().includes(text.toLowerCase()))
    .map((r) => r.tun_id)
    .sort((a, b) => b - a);
}

/** The SQL statements the app runs while `fn` runs. */
async function sqlOf(fn: () => Promise<unknown>): Promise<string[]> {
  const logged: string[] = [];
  const executor = t.db.getExecutor();
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = <R>(compiled: CompiledQuery<R>) => {
    logged.push(compiled.sql);
    return execute(compiled);
  };
  try {
    await fn();
  } finally {
    executor.executeQuery = execute;
  }
  return logged;
}

/** SQLite: the index agrees with its content table (FTS5 compares every row; throws when not). */
async function indexInStep(): Promise<void> {
  if (TEST_DIALECT === "sqlite")
    await sql`insert into tunnels_name_fts (tunnels_name_fts, rank) values ('integrity-check', 1)`.execute(t.db);
}

describe("tunnel search by name", () => {
  it("finds what a scan finds: any case, any part, Chinese, short texts, and % and _ taken literally", async () => {
    for (const text of [
      ...["web", "WEB", "server", "-ad", "数据库", "库主", "数据", "nothing", "deleted-web"],
      // Through the index with a wildcard character in the text: the escaped LIKE narrows to the literal.
      ...["web_ser", "web_server9", "bXser", "web%ser"],
      // Without 3 plain characters in a row: a scan.
      ...["_bc", "a_b", "%", "_", "b%", "ss", "s"],
    ]) {
      const want = await expected(text);
      expect([text, await search(text)]).toEqual([text, want]);
    }
    // Sanity of the expectations themselves: the literal "_" is not a wildcard, the deleted one is left out.
    expect(await expected("a_b")).toEqual([tunnels[5].tun_id]);
    expect(await expected("web_ser")).toEqual([tunnels[8].tun_id]);
    expect(await expected("web")).toHaveLength(5);
    // The customer's own list searches the same way.
    expect(await search("数据库", "/user/tun", owner.token)).toEqual([tunnels[4].tun_id, tunnels[3].tun_id]);
    await indexInStep();
  });

  it("follows every write of a name: created, renamed by the customer and by an operator", async () => {
    const created = await createTestTunnel(t, owner.token, { node_id: node.node_id, tun_name: "brand-new-host" });
    expect(await search("new-ho")).toEqual([created.tun_id]);
    const mine = await t.api("PATCH", "/user/tun", {
      token: owner.token,
      body: { tun_id: created.tun_id, tun_name: "renamed-once" },
    });
    expect(mine.body.code).toBe("SUCCESS");
    expect(await search("new-ho")).toEqual([]);
    expect(await search("med-on")).toEqual([created.tun_id]);
    const ops = await t.api("PATCH", "/super/tun", {
      token: admin,
      body: { tun_id: created.tun_id, tun_name: "by-operator" },
    });
    expect(ops.body.code).toBe("SUCCESS");
    expect(await search("med-on")).toEqual([]);
    expect(await search("operat")).toEqual([created.tun_id]);
    // The poller's writes of statuses and totals leave the index alone (SQLite: the row's own
    // change and no trigger's; a rename, for contrast, runs the trigger's writes), and it stays in step.
    const changes = async () =>
      TEST_DIALECT === "sqlite"
        ? Number((await sql<{ n: number }>`select total_changes() as n`.execute(t.db)).rows[0].n)
        : 0;
    const changed = async (fn: () => Promise<unknown>) => {
      const before = await changes();
      await fn();
      return (await changes()) - before;
    };
    const status = await changed(() =>
      t.db.updateTable("tunnels").set({ status: 1, traffic_in: 5 }).where("tun_id", "=", created.tun_id).execute(),
    );
    const rename = await changed(() =>
      t.db.updateTable("tunnels").set({ tun_name: "by-operator" }).where("tun_id", "=", created.tun_id).execute(),
    );
    if (TEST_DIALECT === "sqlite") expect([status, rename > 1]).toEqual([1, true]);
    expect(await search("operat")).toEqual([created.tun_id]);
    await indexInStep();
  });

  it(
    "SQLite reads the trigram index for 3 characters or more, and scans for fewer",
    onlyOn("sqlite", "it reads SQLite's query plan of the FTS5 trigram table"),
    async () => {
      const plan = async (name: string) => {
        const rows = await sql<{
          detail: string;
        }>`explain query plan select tun_id from tunnels where ${sql.raw("1")} = 1 and tun_id in (select rowid from tunnels_name_fts where tun_name like ${`%${name}%`})`.execute(
          t.db,
        );
        return rows.rows.map((r) => r.detail).join(" | ");
      };
      expect(await plan("server")).toMatch(/SCAN tunnels_name_fts VIRTUAL TABLE INDEX 0:L/);
      // The list's own query takes that route (its SQL names the FTS table only for 3 characters or more).
      const q = (name: string) => () => t.api("GET", "/super/tun/list", { token: admin, query: { name } });
      expect((await sqlOf(q("server"))).some((s) => s.includes("tunnels_name_fts"))).toBe(true);
      expect((await sqlOf(q("se"))).some((s) => s.includes("tunnels_name_fts"))).toBe(false);
    },
  );

  it(
    "PostgreSQL's ILIKE can use the trigram index",
    onlyOn("postgres", "it reads PostgreSQL's plan of the pg_trgm GIN index"),
    async () => {
      // A handful of rows: the planner would scan them anyway; forbidding the scan shows the index applies.
      const plan = await t.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return sql<{
          "QUERY PLAN": string;
        }>`explain select tun_id from tunnels where tun_name ilike ${"%server%"}`.execute(trx);
      });
      expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/Bitmap Index Scan on tunnels_name_trgm/);
    },
  );

  it("a customer's own list, and an operator's filtered by owner, scan that owner's tunnels", async () => {
    const logged = await sqlOf(() => search("server", "/user/tun", owner.token));
    expect(logged.some((s) => s.includes("tunnels_name_fts"))).toBe(false);
    expect(await search("server", "/user/tun", owner.token)).toEqual([
      tunnels[9].tun_id,
      tunnels[8].tun_id,
      tunnels[0].tun_id,
    ]);
    const r = await t.api<Paged<AdminTunnelRow>>("GET", "/super/tun/list", {
      token: admin,
      query: { name: "server", uid: owner.uid },
    });
    expect(r.body.data.list.map((x) => x.tun_id)).toEqual([tunnels[9].tun_id, tunnels[8].tun_id, tunnels[0].tun_id]);
  });

  it(
    "PostgreSQL: where the index cannot be made, up() warns and the migration's transaction goes on",
    onlyOn("postgres", "only PostgreSQL's index is made in a savepoint that may fail (SQLite's FTS5 table cannot)"),
    async () => {
      await nameSearch.down(t.db);
      // A name already taken makes "create index" fail inside the savepoint.
      await sql`create index tunnels_name_trgm on tunnels (tun_name)`.execute(t.db);
      try {
        // Asserted, not printed ("relation … already exists" is this test's doing).
        const { result: after, warnings } = await catchWarnings(/tunnels_name_trgm not created/, () =>
          t.db.transaction().execute(async (trx) => {
            await nameSearch.up(trx);
            return (await sql<{ n: number }>`select count(*)::int as n from tunnels`.execute(trx)).rows[0].n;
          }),
        );
        expect(after).toBeGreaterThan(0);
        expect(warnings).toEqual([expect.stringContaining('relation "tunnels_name_trgm" already exists')]);
      } finally {
        await sql`drop index tunnels_name_trgm`.execute(t.db);
        await t.db.transaction().execute((trx) => nameSearch.up(trx));
      }
      expect(await search("server")).toEqual(await expected("server"));
    },
  );

  it("up() indexes the tunnels already there, and down() removes what up() made", async () => {
    const objects = async () =>
      TEST_DIALECT === "sqlite"
        ? (
            await sql<{
              name: string;
            }>`select name from sqlite_master where name like 'tunnels_name_fts%' order by name`.execute(t.db)
          ).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where indexname = 'tunnels_name_trgm'`.execute(t.db)
          ).rows.map((r) => r.name);
    expect((await objects()).length).toBeGreaterThan(0);
    await nameSearch.down(t.db);
    expect(await objects()).toEqual([]);
    // Written while there is no index: up() (in a transaction, as the migrator runs it) finds it.
    await t.db
      .updateTable("tunnels")
      .set({ tun_name: "written-meanwhile" })
      .where("tun_id", "=", tunnels[7].tun_id)
      .execute();
    await t.db.transaction().execute((trx) => nameSearch.up(trx));
    expect((await objects()).length).toBeGreaterThan(0);
    expect(await search("meanwhi")).toEqual([tunnels[7].tun_id]);
    expect(await search("数据库")).toEqual([tunnels[4].tun_id, tunnels[3].tun_id]);
    await indexInStep();
  });
});
