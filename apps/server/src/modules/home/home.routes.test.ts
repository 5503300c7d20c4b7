import type { HomeConfigRow, Paged, UserHome } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import type { TestApp } from "../../../test/harness";

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

const add = async (body: Record<string, unknown>) => {
  const r = await t.api<HomeConfigRow>("POST", "/super/config/index", { token: admin, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
};

describe("home content config", () => {
  it("adds, lists filtered, patches only param's fields and deletes, audited", async () => {
    const n = await add({ data_type: 2, title: "维护公告", content: "今晚 **22:00** 维护", title_color: "#ff0000" });
    expect(n).toMatchObject({ data_type: 2, title: "维护公告", sort: 0, link: "", addon: { published: true } });
    const list = await t.api<Paged<HomeConfigRow>>("GET", "/super/config/index", {
      token: admin,
      query: { page: 1, size: 10, data_type: 2, title: "维护" },
    });
    expect(list.body.data.list.map((r) => r.id)).toContain(n.id);
    const byContent = await t.api<Paged<HomeConfigRow>>("GET", "/super/config/index", {
      token: admin,
      query: { content: "不存在的内容" },
    });
    expect(byContent.body.data.total).toBe(0);

    const p = await t.api<HomeConfigRow>("PATCH", "/super/config/index", {
      token: admin,
      body: { id: n.id, param: { sort: 5, link: "/doc/faq" } },
    });
    expect(p.body.data).toMatchObject({ sort: 5, link: "/doc/faq", title: "维护公告", title_color: "#ff0000" });
    const flat = await t.api("PATCH", "/super/config/index", { token: admin, body: { id: n.id, sort: 1 } });
    expect(flat.status).toBe(400);
    const missing = await t.api("PATCH", "/super/config/index", { token: admin, body: { id: 999999, param: {} } });
    expect(missing.status).toBe(404);

    const audit = await t.api<Paged<{ action: string; target: string }>>("GET", "/super/audit", {
      token: admin,
      query: { action: "home.update" },
    });
    expect(audit.body.data.list.some((a) => a.target === `home:${n.id}`)).toBe(true);

    const del = await t.api("DELETE", "/super/config/index", { token: admin, body: { id: n.id } });
    expect(del.status).toBe(200);
    const again = await t.api("DELETE", "/super/config/index", { token: admin, body: { id: n.id } });
    expect(again.status).toBe(404);
  });

  it("searches title and content literally: % and _ match only themselves", async () => {
    const tag = `k${Date.now() % 100000}`;
    const pct = await add({ data_type: 2, title: `${tag} 五折 50%`, content: `${tag} a_b` });
    const plain = await add({ data_type: 2, title: `${tag} 五折 500`, content: `${tag} axb` });
    const ids = async (query: Record<string, unknown>) =>
      (
        await t.api<Paged<HomeConfigRow>>("GET", "/super/config/index", {
          token: admin,
          query: { size: 100, ...query },
        })
      ).body.data.list
        .map((r) => r.id)
        .sort((x, y) => x - y);
    expect(await ids({ title: tag })).toEqual([pct.id, plain.id]);
    expect(await ids({ title: `${tag} 五折 50%` })).toEqual([pct.id]);
    expect(await ids({ title: "50%" })).toEqual([pct.id]);
    expect(await ids({ content: `${tag} a_b` })).toEqual([pct.id]);
    expect(await ids({ content: `%${tag}` })).toEqual([]);
    // The customers' home page of later tests shows every published entry: these go.
    for (const r of [pct, plain]) await t.api("DELETE", "/super/config/index", { token: admin, body: { id: r.id } });
  });

  it("refuses a bad colour, a script or protocol-relative link and an unknown kind, changing nothing", async () => {
    const before = await t.api<Paged<HomeConfigRow>>("GET", "/super/config/index", {
      token: admin,
      query: { size: 100 },
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ data_type: 2, title: "x", title_color: "red;background:url(x)" }, "title_color"],
      [{ data_type: 2, title: "x", title_color: "#12345" }, "title_color"],
      [{ data_type: 1, title: "x", link: "javascript:alert(1)" }, "link"],
      [{ data_type: 1, title: "x", link: "JaVaScRiPt:alert(1)" }, "link"],
      [{ data_type: 1, title: "x", link: "data:text/html,<script>alert(1)</script>" }, "link"],
      [{ data_type: 1, title: "x", link: "//evil.example/x" }, "link"],
      [{ data_type: 1, title: "x", link: 'https://ok.example/"><script>' }, "link"],
      [{ data_type: 4, title: "x" }, "data_type"],
      [{ data_type: 2, title: "" }, "title"],
    ];
    for (const [body, field] of cases) {
      const r = await t.api("POST", "/super/config/index", { token: admin, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(10000);
      expect(r.body.msg).toContain(field);
    }
    const ok = await add({ data_type: 2, title: "ok" });
    const bad = await t.api("PATCH", "/super/config/index", {
      token: admin,
      body: { id: ok.id, param: { link: "javascript:alert(1)" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("link");
    const after = await t.api<Paged<HomeConfigRow>>("GET", "/super/config/index", {
      token: admin,
      query: { size: 100 },
    });
    expect(after.body.data.total).toBe(before.body.data.total + 1);
    expect(after.body.data.list.find((r) => r.id === ok.id)?.link).toBe("");
    await t.api("DELETE", "/super/config/index", { token: admin, body: { id: ok.id } });
  });

  it("gives customers only published entries, sorted, and keeps writes to managers", async () => {
    const c2 = await add({ data_type: 1, title: "轮播二", sort: 20, link: "https://example.com/b" });
    const c1 = await add({ data_type: 1, title: "轮播一", sort: 10 });
    const hidden = await add({ data_type: 1, title: "草稿", sort: 0, addon: { published: false } });
    const n1 = await add({ data_type: 2, title: "公告", sort: 1 });
    const q = await add({ data_type: 3, title: "一句话", content: "稳定第一" });
    const q2 = await add({ data_type: 3, title: "第二句", sort: 9 });
    const u = await t.register();
    const home = await t.api<UserHome>("GET", "/user/home", { token: u.token });
    expect(home.body.data.carousel.map((r) => r.id)).toEqual([c1.id, c2.id]);
    expect(home.body.data.notices.map((r) => r.id)).toEqual([n1.id]);
    expect(home.body.data.quote?.id).toBe(q.id);
    expect(home.body.data.carousel.some((r) => r.id === hidden.id)).toBe(false);

    await t.api("PATCH", "/super/config/index", {
      token: admin,
      body: { id: hidden.id, param: { addon: { published: true } } },
    });
    await t.api("PATCH", "/super/config/index", { token: admin, body: { id: c2.id, param: { sort: 1 } } });
    const next = await t.api<UserHome>("GET", "/user/home", { token: u.token });
    expect(next.body.data.carousel.map((r) => r.id)).toEqual([hidden.id, c2.id, c1.id]);

    const forbidden = await t.api("POST", "/super/config/index", {
      token: u.token,
      body: { data_type: 2, title: "x" },
    });
    expect(forbidden.status).toBe(403);
    const list = await t.api("GET", "/super/config/index", { token: u.token });
    expect(list.status).toBe(403);
    const anon = await t.api("GET", "/user/home", {});
    expect(anon.status).toBe(401);
    for (const id of [c1.id, c2.id, hidden.id, n1.id, q.id, q2.id])
      await t.api("DELETE", "/super/config/index", { token: admin, body: { id } });
  });
});
