import type { Flow } from "@burrow/contract";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode } from "../../../test/frp-fixtures";
import type { TestApp } from "../../../test/harness";
import { sqliteWorker } from "../../db/dialect";
import { LARGE_ROWS, maxStaleMs } from "../../shared/large-memo";

/**
 * /super/flow against sums worked out here from the rows: by day (every day of the range), by node
 * (a deleted node by its number), by user heaviest first and paged; a customer's own flow (uid) is
 * their totals in one row.
 */
let t: TestApp;
let admin: string;
const range = { start_date: "2026-03-01", end_date: "2026-03-07" };
type Row = { tun_id: number; uid: number; node_id: number; day: string; traffic_in: number; traffic_out: number };
const rows: Row[] = [];
let nodes: { node_id: number; name: string }[];
let users: { uid: number; phone: string }[];

adminSuite((ready) => ({ t, admin } = ready));
beforeAll(async () => {
  nodes = await Promise.all([1, 2, 3].map(() => createTestNode(t, {}, admin)));
  users = await Promise.all([1, 2, 3, 4].map(() => t.register()));
  // users[3] has traffic outside the range only
  const days = ["2026-02-28", "2026-03-01", "2026-03-03", "2026-03-07", "2026-03-08"];
  const tun = 9000;
  for (const [ui, u] of users.entries())
    for (const [ni, n] of nodes.entries())
      for (const [di, day] of days.entries()) {
        if (ui === 3 ? di !== 0 : (ui + ni + di) % 3 === 0) continue;
        rows.push({
          tun_id: tun + ui * 10 + ni,
          uid: u.uid,
          node_id: n.node_id,
          day,
          traffic_in: 1000 * (ui + 1) + 10 * ni + di,
          traffic_out: 7 * (ui + 1) * (ni + 2) + di,
        });
      }
  await t.db.insertInto("tunnel_traffic").values(rows).execute();
  // a deleted node's traffic stays, shown by its number
  expect((await t.api("DELETE", "/super/node", { token: admin, body: { node_id: nodes[2].node_id } })).body.code).toBe(
    "SUCCESS",
  );
});

/** What /super/flow should answer for the rows matching `keep`. */
function expected(keep: (r: Row) => boolean, page: number, size: number): Flow {
  const mine = rows.filter((r) => r.day >= range.start_date && r.day <= range.end_date && keep(r));
  const sum = (rs: Row[]) => ({
    traffic_in: rs.reduce((n, r) => n + r.traffic_in, 0),
    traffic_out: rs.reduce((n, r) => n + r.traffic_out, 0),
  });
  const days = Array.from({ length: 7 }, (_, i) => `2026-03-0${i + 1}`).map((date) => ({
    date,
    ...sum(mine.filter((r) => r.day === date)),
  }));
  const byNode = [...new Set(mine.map((r) => r.node_id))].sort((a, b) => a - b);
  const byUser = [...new Set(mine.map((r) => r.uid))]
    .map((uid) => ({
      uid,
      phone: users.find((u) => u.uid === uid)?.phone ?? "",
      ...sum(mine.filter((r) => r.uid === uid)),
    }))
    .sort((a, b) => b.traffic_in + b.traffic_out - (a.traffic_in + a.traffic_out) || a.uid - b.uid);
  return {
    start_date: range.start_date,
    end_date: range.end_date,
    ...(({ traffic_in, traffic_out }) => ({ total_in: traffic_in, total_out: traffic_out }))(sum(mine)),
    days,
    nodes: byNode.map((node_id) => ({
      node_id,
      node_name: node_id === nodes[2].node_id ? `#${node_id}` : (nodes.find((n) => n.node_id === node_id)?.name ?? ""),
      ...sum(mine.filter((r) => r.node_id === node_id)),
    })),
    users: { list: byUser.slice((page - 1) * size, page * size), total: byUser.length, page, size },
  };
}

const flow = async (query: Record<string, string | number>) => {
  const r = await t.api<Flow>("GET", "/super/flow", { token: admin, query: { ...range, ...query } });
  expect(r.body.code).toBe("SUCCESS");
  return r.body.data;
};

describe("/super/flow", () => {
  it("sums by day, node and user over the range, every day listed, users heaviest first and paged", async () => {
    expect(await flow({ page: 1, size: 2 })).toEqual(expected(() => true, 1, 2));
    expect(await flow({ page: 2, size: 2 })).toEqual(expected(() => true, 2, 2));
  });

  it("filters by node", async () => {
    const n = nodes[1].node_id;
    expect(await flow({ node_id: n, page: 1, size: 10 })).toEqual(expected((r) => r.node_id === n, 1, 10));
  });

  it("gives one customer's totals as their one row, on page 1 only", async () => {
    for (const u of users.slice(0, 3)) {
      const want = expected((r) => r.uid === u.uid, 1, 10);
      expect(want.users.total).toBe(1);
      expect(await flow({ uid: u.uid, page: 1, size: 10 })).toEqual(want);
      expect(await flow({ uid: u.uid, page: 2, size: 10 })).toEqual(expected((r) => r.uid === u.uid, 2, 10));
    }
    const n = nodes[0].node_id;
    const both = (r: Row) => r.uid === users[1].uid && r.node_id === n;
    expect(await flow({ uid: users[1].uid, node_id: n, page: 1, size: 10 })).toEqual(expected(both, 1, 10));
  });

  it("answers a customer without traffic in the range with zeros and no row", async () => {
    const quiet = await flow({ uid: users[3].uid, page: 1, size: 10 });
    expect(quiet).toEqual(expected((r) => r.uid === users[3].uid, 1, 10));
    expect(quiet).toMatchObject({ total_in: 0, total_out: 0, nodes: [], users: { total: 0, list: [] } });
  });
});

describe("/super/flow over many rows", () => {
  it("is refreshed with the same sums once stale, off the event loop on SQLite (its worker thread)", async () => {
    const april = { start_date: "2026-04-01", end_date: "2026-04-07" };
    const many = Array.from({ length: LARGE_ROWS + 200 }, (_, i) => ({
      tun_id: 20_000 + Math.floor(i / 7),
      uid: users[i % 3].uid,
      node_id: nodes[i % 2].node_id,
      day: `2026-04-0${1 + (i % 7)}`,
      traffic_in: 100 + i,
      traffic_out: 3 * i,
    }));
    for (let i = 0; i < many.length; i += 200)
      await t.db
        .insertInto("tunnel_traffic")
        .values(many.slice(i, i + 200))
        .execute();
    const totals = (rs: typeof many) => ({
      total_in: rs.reduce((n, r) => n + r.traffic_in, 0),
      total_out: rs.reduce((n, r) => n + r.traffic_out, 0),
    });
    const get = async () => {
      const r = await t.api<Flow>("GET", "/super/flow", { token: admin, query: { ...april, page: 1, size: 2 } });
      expect(r.body.code).toBe("SUCCESS");
      return r.body.data;
    };
    const first = await get();
    expect(first).toMatchObject(totals(many));
    expect(first.users.total).toBe(3);
    const worker = sqliteWorker(t.db);
    const readsBefore = worker?.reads ?? 0;
    const late = {
      tun_id: 29_999,
      uid: users[0].uid,
      node_id: nodes[0].node_id,
      day: "2026-04-03",
      traffic_in: 5,
      traffic_out: 7,
    };
    await t.db.insertInto("tunnel_traffic").values(late).execute();
    // Fresh: the memoized figure. Past its longest staleness: a refresh the call waits for.
    expect(await get()).toEqual(first);
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockImplementation(() => now + maxStaleMs(many.length) + 1_000);
    try {
      const second = await get();
      expect(second).toMatchObject(totals([...many, late]));
      expect(second.days.find((d) => d.date === "2026-04-03")?.traffic_in).toBe(
        totals([...many.filter((r) => r.day === "2026-04-03"), late]).total_in,
      );
      expect(second.users.list).toHaveLength(2);
      // On SQLite the refresh's three statements ran on the worker thread (twice if a slow
      // machine let the figure go stale before the clock moved); PostgreSQL has none.
      if (worker) expect(worker.reads - readsBefore).toBeGreaterThanOrEqual(3);
    } finally {
      clock.mockRestore();
    }
  });
});
