import type { AdminNodeDetail, Paged, UserTraffic, UserTrafficRow } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { addDays, shanghaiDate } from "../../shared/time";
import { transact } from "../../shared/tx";
import { addTunnelTraffic, tunnelsGone, tunnelsOnline } from "../tunnels/sessions";

let t: TestApp;
let node: AdminNodeDetail;
beforeAll(async () => {
  t = await createTestApp();
  node = await createTestNode(t, {}, await t.adminToken());
});
afterAll(() => t.close());

const today = shanghaiDate();

/** A customer with a plan and `names.length` tunnels of those names. */
async function customerWith(...names: string[]) {
  const u = await t.register();
  await setPlan(t, u.uid, {});
  const tunnels = [];
  for (const tun_name of names) tunnels.push(await createTestTunnel(t, u.token, { node_id: node.node_id, tun_name }));
  return { ...u, tunnels };
}

/** Traffic as the poller credits it (added to one row per tunnel and day), `ago` days before today. */
async function traffic(uid: number, rows: { tun_id: number; ago: number; traffic_in: number; traffic_out: number }[]) {
  await transact(t.ctx, (trx) =>
    addTunnelTraffic(
      trx,
      node.node_id,
      rows.map(({ ago, ...r }) => ({ ...r, uid, day: addDays(today, -ago) })),
    ),
  );
}

const rowsOf = (token: string, query: Record<string, unknown> = {}) =>
  t.api<Paged<UserTrafficRow>>("GET", "/user/traffic/rows", { token, query });

describe("GET /user/traffic/rows", () => {
  it("pages a customer's rows exactly: newest day first, then newest tunnel, each page the slice of the whole", async () => {
    const a = await customerWith("web", "ssh", "db");
    const [web, ssh, db] = a.tunnels;
    const b = await customerWith("theirs");
    // Inserted out of order; day 30 ago is outside the default 30 days, day 3 has no traffic.
    await traffic(a.uid, [
      { tun_id: db.tun_id, ago: 0, traffic_in: 1, traffic_out: 2 },
      { tun_id: web.tun_id, ago: 0, traffic_in: 3, traffic_out: 4 },
      { tun_id: ssh.tun_id, ago: 1, traffic_in: 5, traffic_out: 6 },
      { tun_id: web.tun_id, ago: 2, traffic_in: 7, traffic_out: 8 },
      { tun_id: db.tun_id, ago: 2, traffic_in: 9, traffic_out: 10 },
      { tun_id: ssh.tun_id, ago: 2, traffic_in: 11, traffic_out: 12 },
      { tun_id: web.tun_id, ago: 29, traffic_in: 13, traffic_out: 14 },
      { tun_id: web.tun_id, ago: 30, traffic_in: 15, traffic_out: 16 },
    ]);
    await traffic(b.uid, [{ tun_id: b.tunnels[0].tun_id, ago: 0, traffic_in: 999, traffic_out: 999 }]);
    // A deleted tunnel's history stays, under its name.
    await t.api("DELETE", "/user/tun", { token: a.token, body: { tun_id: db.tun_id } });

    const row = (tun: typeof web, ago: number, traffic_in: number, traffic_out: number) => ({
      tun_id: tun.tun_id,
      tun_name: tun.tun_name,
      date: addDays(today, -ago),
      traffic_in,
      traffic_out,
    });
    const expected = [
      ...[row(web, 0, 3, 4), row(db, 0, 1, 2)].sort((x, y) => y.tun_id - x.tun_id),
      row(ssh, 1, 5, 6),
      ...[row(web, 2, 7, 8), row(db, 2, 9, 10), row(ssh, 2, 11, 12)].sort((x, y) => y.tun_id - x.tun_id),
      row(web, 29, 13, 14),
    ];
    const whole = await rowsOf(a.token, { size: 100 });
    expect(whole.body.data).toEqual({ list: expected, total: expected.length, page: 1, size: 100 });
    for (const size of [1, 2, 4]) {
      for (let page = 1; page <= Math.ceil(expected.length / size) + 1; page++) {
        const r = await rowsOf(a.token, { page, size });
        expect(r.body.data).toEqual({
          list: expected.slice((page - 1) * size, page * size),
          total: expected.length,
          page,
          size,
        });
      }
    }
    // The default is 10 a page.
    expect((await rowsOf(a.token)).body.data).toMatchObject({ page: 1, size: 10, total: expected.length });

    // Filters: a range, one tunnel (a deleted one too), both.
    const ranged = await rowsOf(a.token, { start_date: addDays(today, -2), end_date: addDays(today, -1) });
    expect(ranged.body.data.list).toEqual(
      expected.filter((r) => r.date >= addDays(today, -2) && r.date <= addDays(today, -1)),
    );
    expect(ranged.body.data.total).toBe(4);
    const older = await rowsOf(a.token, { start_date: addDays(today, -40), tun_id: web.tun_id, size: 100 });
    expect(older.body.data.list).toEqual([
      row(web, 0, 3, 4),
      row(web, 2, 7, 8),
      row(web, 29, 13, 14),
      row(web, 30, 15, 16),
    ]);
    const deleted = await rowsOf(a.token, { tun_id: db.tun_id, end_date: addDays(today, -1) });
    expect(deleted.body.data).toEqual({ list: [row(db, 2, 9, 10)], total: 1, page: 1, size: 10 });

    // The other customer sees their own row only, and a's tunnel is not found for them.
    const theirs = await rowsOf(b.token, { size: 100 });
    expect(theirs.body.data.list).toEqual([row(b.tunnels[0], 0, 999, 999)]);
    expect(theirs.body.data.total).toBe(1);
    const foreign = await rowsOf(b.token, { tun_id: web.tun_id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.data).toBeFalsy();
  });

  it("answers an empty page for a customer without traffic, and past the last page", async () => {
    const c = await customerWith("idle");
    expect((await rowsOf(c.token)).body.data).toEqual({ list: [], total: 0, page: 1, size: 10 });
    expect((await rowsOf(c.token, { tun_id: c.tunnels[0].tun_id, page: 3 })).body.data).toEqual({
      list: [],
      total: 0,
      page: 3,
      size: 10,
    });
  });

  it("refuses bad dates, ranges and paging like /user/traffic, naming the field", async () => {
    const c = await customerWith();
    for (const [query, field] of [
      [{ start_date: "2024/01/01" }, "start_date"],
      [{ end_date: "yesterday" }, "end_date"],
      [{ start_date: "2025-02-01", end_date: "2025-01-01" }, "start_date"],
      [{ start_date: "2020-01-01", end_date: "2025-01-01" }, "start_date"],
      [{ tun_id: "abc" }, "tun_id"],
      [{ page: 0 }, "page"],
      [{ size: 101 }, "size"],
    ] as const) {
      for (const url of ["/user/traffic/rows", "/user/traffic"]) {
        // /user/traffic is not paged: it ignores page and size.
        if (url === "/user/traffic" && (field === "page" || field === "size")) continue;
        const r = await t.api("GET", url, { token: c.token, query });
        expect(r.status, `${url} ${JSON.stringify(query)}`).toBe(400);
        expect(r.body, `${url} ${JSON.stringify(query)}`).toMatchObject({ code: 10000, data: { field } });
      }
    }
    expect((await t.api("GET", "/user/traffic/rows")).status).toBe(401);
  });
});

describe("GET /user/traffic", () => {
  it("answers per day and per tunnel, without the per tunnel per day rows (GET /user/traffic/rows has them)", async () => {
    const a = await customerWith("web");
    await traffic(a.uid, [{ tun_id: a.tunnels[0].tun_id, ago: 1, traffic_in: 10, traffic_out: 20 }]);
    const r = await t.api<UserTraffic>("GET", "/user/traffic", { token: a.token });
    expect(r.body.data.days.at(-2)).toEqual({ date: addDays(today, -1), traffic_in: 10, traffic_out: 20 });
    expect(r.body.data.tunnels).toEqual([
      { tun_id: a.tunnels[0].tun_id, tun_name: "web", status: 2, traffic_in: 10, traffic_out: 20 },
    ]);
    expect(Object.keys(r.body.data).sort()).toEqual(["days", "end_date", "quota", "start_date", "tunnels"]);
  });
});

describe("GET /user/traffic from memory", () => {
  const sumsOf = async (token: string, query: Record<string, unknown> = {}) => {
    const r = await t.api<UserTraffic>("GET", "/user/traffic", { token, query });
    expect(r.status).toBe(200);
    return { days: r.body.data.days.filter((d) => d.traffic_in || d.traffic_out), tunnels: r.body.data.tunnels };
  };

  it("shows traffic the poller adds, tunnels renamed or deleted, at once; each range and tunnel on its own", async () => {
    const a = await customerWith("web", "ssh");
    const [web, ssh] = a.tunnels;
    const b = await customerWith("theirs");
    await traffic(a.uid, [{ tun_id: web.tun_id, ago: 0, traffic_in: 1, traffic_out: 1 }]);
    await traffic(b.uid, [{ tun_id: b.tunnels[0].tun_id, ago: 0, traffic_in: 7, traffic_out: 7 }]);
    const day = (ago: number, n: number) => ({ date: addDays(today, -ago), traffic_in: n, traffic_out: n });
    const tun = (x: typeof web, name: string, status: number, n: number) => ({
      tun_id: x.tun_id,
      tun_name: name,
      status,
      traffic_in: n,
      traffic_out: n,
    });
    expect(await sumsOf(a.token)).toEqual({ days: [day(0, 1)], tunnels: [tun(web, "web", 2, 1)] });
    expect((await rowsOf(a.token)).body.data.total).toBe(1);
    const bBefore = await sumsOf(b.token);
    // Added to a row already summed, and a new tunnel's row.
    await traffic(a.uid, [
      { tun_id: web.tun_id, ago: 0, traffic_in: 2, traffic_out: 2 },
      { tun_id: ssh.tun_id, ago: 1, traffic_in: 5, traffic_out: 5 },
    ]);
    expect(await sumsOf(a.token)).toEqual({
      days: [day(1, 5), day(0, 3)],
      tunnels: [tun(web, "web", 2, 3), tun(ssh, "ssh", 2, 5)],
    });
    // One tunnel and a narrower range are their own answers, and follow the rows too.
    expect(await sumsOf(a.token, { tun_id: ssh.tun_id })).toEqual({
      days: [day(1, 5)],
      tunnels: [tun(ssh, "ssh", 2, 5)],
    });
    expect(await sumsOf(a.token, { start_date: today })).toEqual({
      days: [day(0, 3)],
      tunnels: [tun(web, "web", 2, 3)],
    });
    // The rows' total is kept with the sums, and follows them.
    expect((await rowsOf(a.token)).body.data.total).toBe(2);
    await traffic(a.uid, [{ tun_id: ssh.tun_id, ago: 0, traffic_in: 1, traffic_out: 1 }]);
    expect((await rowsOf(a.token)).body.data).toMatchObject({ total: 3, list: { length: 3 } });
    expect((await rowsOf(a.token, { tun_id: ssh.tun_id })).body.data.total).toBe(2);
    expect((await sumsOf(a.token, { tun_id: ssh.tun_id })).days).toEqual([day(1, 5), day(0, 1)]);
    expect((await sumsOf(a.token, { start_date: today })).tunnels).toEqual([
      tun(web, "web", 2, 3),
      tun(ssh, "ssh", 2, 1),
    ]);
    // Renamed, then deleted: the sums keep the tunnel under its name and status of now.
    const edit = await t.api("PATCH", "/user/tun", { token: a.token, body: { tun_id: web.tun_id, tun_name: "site" } });
    expect(edit.status).toBe(200);
    expect((await sumsOf(a.token)).tunnels[0]).toEqual(tun(web, "site", 2, 3));
    await t.api("DELETE", "/user/tun", { token: a.token, body: { tun_id: web.tun_id } });
    expect((await sumsOf(a.token)).tunnels[0]).toEqual(tun(web, "site", -1, 3));
    // A status changed by a quiet write (frps reporting the proxy up, then gone) shows at once too.
    await transact(t.ctx, (trx) => tunnelsOnline(trx, [ssh.tun_id], "run-1", new Date().toISOString()));
    expect((await sumsOf(a.token)).tunnels[1]).toEqual(tun(ssh, "ssh", 1, 6));
    await transact(t.ctx, (trx) => tunnelsGone(trx, [ssh.tun_id]));
    expect((await sumsOf(a.token)).tunnels[1]).toEqual(tun(ssh, "ssh", 2, 6));
    // The other customer's sums were never touched by a's changes, and never show a's.
    expect(await sumsOf(b.token)).toEqual(bBefore);
    expect(bBefore).toEqual({ days: [day(0, 7)], tunnels: [tun(b.tunnels[0], "theirs", 2, 7)] });
  });

  it("keeps only the last 30 days: other ranges are summed on every call, and never fill memory", async () => {
    const a = await customerWith("web");
    await traffic(a.uid, [{ tun_id: a.tunnels[0].tun_id, ago: 40, traffic_in: 4, traffic_out: 4 }]);
    await sumsOf(a.token);
    const kept = t.ctx.traffic.size;
    for (let ago = 31; ago < 60; ago++) {
      const r = await sumsOf(a.token, { start_date: addDays(today, -ago), end_date: addDays(today, -1) });
      expect(r.tunnels.map((x) => x.traffic_in)).toEqual(ago >= 40 ? [4] : []);
    }
    expect(t.ctx.traffic.size).toBe(kept);
    // The default range asked for by its dates is the kept entry.
    await sumsOf(a.token, { start_date: addDays(today, -29), end_date: today });
    expect(t.ctx.traffic.size).toBe(kept);
  });
});
