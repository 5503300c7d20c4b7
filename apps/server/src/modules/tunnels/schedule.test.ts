import {
  overlappingWindows,
  type ScheduleWindow,
  type TunnelSchedule,
  TunnelScheduleBody,
  type TunnelView,
} from "@burrow/contract";
import { scheduleNote, scheduleState, scheduleWhen } from "@burrow/frp-decision";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ALLOW, tcpProxy, userInfo } from "../../../test/frps-bodies";
import type { TestApp } from "../../../test/harness";
import { pluginSuite } from "../../../test/plugin-fixtures";

/* 定时开放: the window arithmetic (pure, explicit clock), the API, and the plugin's decisions. */

/** Shanghai wall clock → epoch ms (UTC+8, no DST). 2026-11-30 is a Monday. */
const sh = (wall: string) => Date.parse(`${wall}+08:00`);
const weekly = (...windows: ScheduleWindow[]): TunnelSchedule => ({ kind: "weekly", windows });
const w = (day: number, start: string, end: string): ScheduleWindow => ({ day, start, end });

describe("window arithmetic", () => {
  const office = weekly(w(1, "09:00", "18:00"));

  it("opens and closes a weekday window, and names the next change", () => {
    expect(scheduleState(office, sh("2026-11-30T08:59:30"))).toEqual({ open: false, next: sh("2026-11-30T09:00") });
    expect(scheduleNote(office, sh("2026-11-30T08:59:30"))).toBe("将于 09:00 开放");
    expect(scheduleState(office, sh("2026-11-30T09:00"))).toEqual({ open: true, next: sh("2026-11-30T18:00") });
    expect(scheduleNote(office, sh("2026-11-30T12:00"))).toBe("将于 18:00 关闭");
    // The end is outside the window: at 18:00 it waits for next Monday.
    expect(scheduleState(office, sh("2026-11-30T18:00"))).toEqual({ open: false, next: sh("2026-12-07T09:00") });
    expect(scheduleNote(office, sh("2026-11-30T18:00"))).toBe("将于 下周一 09:00 开放");
  });

  it("crosses the week's end: Sunday evening waits for Monday", () => {
    expect(scheduleNote(office, sh("2026-11-29T23:00"))).toBe("将于 周一 09:00 开放");
    expect(scheduleNote(office, sh("2026-12-05T10:00"))).toBe("将于 周一 09:00 开放");
  });

  it("crosses midnight: Sunday 22:00–02:00 is open on Monday at 01:00", () => {
    const late = weekly(w(7, "22:00", "02:00"));
    expect(scheduleState(late, sh("2026-11-30T01:00"))).toEqual({ open: true, next: sh("2026-11-30T02:00") });
    expect(scheduleNote(late, sh("2026-11-29T23:59"))).toBe("将于 周一 02:00 关闭");
    expect(scheduleNote(late, sh("2026-11-29T21:00"))).toBe("将于 22:00 开放");
    expect(scheduleState(late, sh("2026-11-30T02:00")).open).toBe(false);
  });

  it("windows that touch close once, at the last one's end; the whole week never closes", () => {
    const evening = weekly(w(1, "20:00", "24:00"), w(2, "00:00", "08:00"));
    expect(scheduleNote(evening, sh("2026-11-30T21:00"))).toBe("将于 周二 08:00 关闭");
    const always = weekly(...[1, 2, 3, 4, 5, 6, 7].map((d) => w(d, "00:00", "24:00")));
    expect(scheduleState(always, sh("2026-12-02T13:37"))).toEqual({ open: true, next: null });
    expect(scheduleNote(always, sh("2026-12-02T13:37"))).toBeNull();
  });

  it("is the same in summer (no DST in Shanghai)", () => {
    // 2027-07-05 is a Monday.
    expect(scheduleState(office, sh("2027-07-05T09:30"))).toEqual({ open: true, next: sh("2027-07-05T18:00") });
    expect(scheduleWhen(sh("2027-07-05T09:00"), sh("2027-07-04T12:00"))).toBe("周一 09:00");
  });

  it("open until an instant, then ended for good", () => {
    const until: TunnelSchedule = { kind: "until", until: new Date(sh("2026-11-30T18:00")).toISOString() };
    expect(scheduleNote(until, sh("2026-11-30T17:45"))).toBe("将于 18:00 关闭");
    expect(scheduleNote(until, sh("2026-11-29T17:45"))).toBe("将于 周一 18:00 关闭");
    expect(scheduleState(until, sh("2026-11-30T18:00"))).toEqual({ open: false, next: null });
    expect(scheduleNote(until, sh("2026-11-30T18:00"))).toBe("定时开放已结束");
  });

  it("finds overlaps on the circle of the week; touching windows do not overlap", () => {
    expect(overlappingWindows([w(7, "23:00", "01:00"), w(1, "00:30", "02:00")])).toEqual([0, 1]);
    expect(overlappingWindows([w(3, "08:00", "12:00"), w(1, "09:00", "10:00"), w(3, "11:00", "13:00")])).toEqual([
      0, 2,
    ]);
    expect(overlappingWindows([w(7, "22:00", "24:00"), w(1, "00:00", "02:00"), w(1, "02:00", "03:00")])).toBeNull();
    expect(overlappingWindows([w(2, "09:00", "10:00"), w(2, "09:00", "10:00")])).toEqual([0, 1]);
  });

  it("the body's rules name the field", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(sh("2026-11-30T12:00"));
    const issue = (b: unknown) => {
      const r = TunnelScheduleBody.safeParse(b);
      return r.success ? null : r.error.issues[0].path.join(".");
    };
    expect(issue({ mode: "for", minutes: 60 })).toBeNull();
    expect(issue({ mode: "for", minutes: 30 })).toBe("minutes");
    expect(issue({ mode: "until", until: new Date(sh("2026-12-07T11:59")).toISOString() })).toBeNull();
    expect(issue({ mode: "until", until: new Date(sh("2026-12-07T12:01")).toISOString() })).toBe("until");
    expect(issue({ mode: "until", until: new Date(sh("2026-11-30T11:00")).toISOString() })).toBe("until");
    expect(issue({ mode: "until", until: "tomorrow" })).toBe("until");
    // an explicit offset and a real calendar time: no roll-over, no server-zone guess
    expect(issue({ mode: "until", until: "2026-12-01T18:00:00+08:00" })).toBeNull();
    expect(issue({ mode: "until", until: "2026-12-01T10:00Z" })).toBeNull();
    expect(issue({ mode: "until", until: "2026-11-31T01:00:00Z" })).toBe("until");
    expect(issue({ mode: "until", until: "2026-12-01T24:00:00Z" })).toBe("until");
    expect(issue({ mode: "until", until: "2026-12-01T14:00:00" })).toBe("until");
    expect(issue({ mode: "until", until: "2026-12-01T14:00:00+0800" })).toBe("until");
    expect(issue({ mode: "weekly", windows: [] })).toBe("windows");
    expect(issue({ mode: "weekly", windows: [w(1, "09:00", "09:00")] })).toBe("windows.0.end");
    expect(issue({ mode: "weekly", windows: [w(1, "25:00", "26:00")] })).toBe("windows.0.start");
    expect(issue({ mode: "weekly", windows: [w(8, "09:00", "10:00")] })).toBe("windows.0.day");
    expect(issue({ mode: "weekly", windows: [w(1, "09:00", "12:00"), w(1, "11:00", "13:00")] })).toBe(
      "windows.1.start",
    );
    vi.useRealTimers();
  });
});

const suite = pluginSuite();
const { customer, plugin, flush } = suite;
let t: TestApp;
beforeAll(() => {
  ({ t } = suite.get());
});
afterEach(() => vi.useRealTimers());

const put = (c: { token: string }, tunId: number, body: unknown) =>
  t.api<TunnelView>("PUT", `/user/tun/${tunId}/schedule`, { token: c.token, body });

describe("PUT/DELETE /user/tun/:tunid/schedule", () => {
  it("opens a tunnel for an hour: the list says when it closes, NewProxy passes, and after the hour it is refused with when", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(sh("2026-11-30T17:00"));
    const c = await customer();
    const r = await put(c, c.tcp.tun_id, { mode: "for", minutes: 60 });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.schedule).toEqual({ kind: "until", until: new Date(sh("2026-11-30T18:00")).toISOString() });
    const list = await t.api<{ list: TunnelView[] }>("GET", "/user/tun", { token: c.token });
    const row = list.body.data.list.find((x) => x.tun_id === c.tcp.tun_id);
    expect(row?.schedule_note).toBe("将于 18:00 关闭");
    expect(list.body.data.list.find((x) => x.tun_id === c.http.tun_id)?.schedule_note).toBeNull();

    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
    await flush();
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);
    const visitor = { user: userInfo(c), proxy_name: `${c.user}.t_${c.tcp.tun_id}`, proxy_type: "tcp" };
    expect((await plugin("NewUserConn", { ...visitor, remote_addr: "198.51.100.9:4000" })).body).toEqual(ALLOW);

    // The hour is over: the heartbeat cuts the session, visitors and a new proxy are refused.
    vi.setSystemTime(sh("2026-11-30T18:00:01"));
    const ping = await plugin("Ping", { user: userInfo(c) });
    expect(ping.body).toEqual({
      reject: true,
      reject_reason: `隧道 ${c.tcp.tun_name} 的定时开放已结束，连接已断开`,
    });
    const conn = await plugin("NewUserConn", { ...visitor, remote_addr: "198.51.100.9:4001" });
    expect(conn.body.reject_reason).toBe(`隧道 ${c.tcp.tun_name} 的定时开放已结束`);
    await plugin("CloseProxy", { user: userInfo(c), proxy_name: `${c.user}.t_${c.tcp.tun_id}` });
    await flush();
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(true);

    // Removing the schedule opens it at all times again.
    const del = await t.api<TunnelView>("DELETE", `/user/tun/${c.tcp.tun_id}/schedule`, { token: c.token });
    expect(del.body.data).toMatchObject({ schedule: null, schedule_note: null });
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
  });

  it("weekly windows: refused outside with the next opening, allowed inside", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(sh("2026-11-29T23:00")); // a Sunday night
    const c = await customer();
    const r = await put(c, c.tcp.tun_id, {
      mode: "weekly",
      windows: [w(1, "09:00", "18:00"), w(5, "20:00", "02:00")],
    });
    expect(r.body.data.schedule_note).toBe("将于 周一 09:00 开放");
    const refused = await plugin("NewProxy", tcpProxy(c));
    expect(refused.body).toEqual({
      reject: true,
      reject_reason: `隧道 ${c.tcp.tun_name} 不在开放时间，将于 周一 09:00 开放`,
    });
    vi.setSystemTime(sh("2026-11-30T09:00"));
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
    // Friday 20:00 to Saturday 02:00.
    vi.setSystemTime(sh("2026-12-05T01:30"));
    const list = await t.api<{ list: TunnelView[] }>("GET", "/user/tun", { token: c.token });
    expect(list.body.data.list.find((x) => x.tun_id === c.tcp.tun_id)?.schedule_note).toBe("将于 02:00 关闭");
  });

  it("another customer's tunnel is 404, and bad input is 400/10000 naming the field and changes nothing", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(sh("2026-11-30T12:00"));
    const a = await customer();
    const b = await customer();
    expect((await put(b, a.tcp.tun_id, { mode: "for", minutes: 15 })).status).toBe(404);
    expect((await t.api("DELETE", `/user/tun/${a.tcp.tun_id}/schedule`, { token: b.token })).status).toBe(404);
    const cases: [unknown, string][] = [
      [{ mode: "until", until: new Date(sh("2026-12-08T12:00")).toISOString() }, "until"],
      // Date.parse would take both: rolled over to 12-01, and read in the server's zone
      [{ mode: "until", until: "2026-11-31T01:00:00Z" }, "until"],
      [{ mode: "until", until: "2026-12-01T14:00:00" }, "until"],
      [{ mode: "weekly", windows: [w(2, "10:00", "10:00")] }, "windows.0.end"],
      [{ mode: "weekly", windows: [w(2, "10:00", "12:00"), w(2, "11:59", "13:00")] }, "windows.1.start"],
      [{ mode: "weekly", windows: [w(2, "9:00", "12:00")] }, "windows.0.start"],
      [{ mode: "for", minutes: 5 }, "minutes"],
    ];
    for (const [body, field] of cases) {
      const r = await put(a, a.tcp.tun_id, body);
      expect(r.status, field).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toContain(field);
    }
    const row = await t.db
      .selectFrom("tunnels")
      .select("schedule")
      .where("tun_id", "=", a.tcp.tun_id)
      .executeTakeFirst();
    expect(row?.schedule).toBeNull();
  });
});
