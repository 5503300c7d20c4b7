import {
  type AdminVerifyView,
  idCheckDigit,
  type VerifySetting,
  type VerifyStartResult,
  type VerifyState,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import { createTestNode } from "../../../test/frp-fixtures";
import { createTestApp, type TestApp } from "../../../test/harness";
import { idNumbers } from "../../../test/verify-fixtures";
import { verifySign } from "./provider";

const idNumber = idNumbers(100);

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

const submit = (token: string, real_name: string, id_number: string) =>
  t.api<VerifyStartResult>("POST", "/user/verify", { token, body: { real_name, id_number } });

describe("local checks of the resident ID number", () => {
  it("accepts the GB 11643 example number, with X as check digit in either case", async () => {
    // 11010519491231002X is the standard's own worked example.
    expect(idCheckDigit("11010519491231002")).toBe("X");
    const u = await t.register();
    const r = await submit(u.token, "张三", "11010519491231002x");
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({ status: 1, real_name: "张*", id_number: "1101**********002X" });
  });

  it.each([
    ["11010519491231002", "18 位"],
    ["1101051949123100201", "18 位"],
    ["11010519491231002Y", "最后一位"],
    ["99010519491231002X", "地区码 99"],
    ["110105199002300021", "不是有效日期"],
    ["110105189912310021", "早于 1900"],
    ["110105209912310021", "晚于今天"],
    ["110105194912310021", "校验位"],
  ])("refuses %s naming what is wrong (%s), changing nothing", async (id, words) => {
    const u = await t.register();
    const r = await submit(u.token, "李四", id);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(10000);
    expect(r.body.msg).toContain("id_number");
    expect(r.body.msg).toContain(words);
    const state = await t.api<VerifyState>("GET", "/user/verify", { token: u.token });
    expect(state.body.data.status).toBe(0);
  });

  it("refuses a birth date of tomorrow and accepts one of 1900-01-01", async () => {
    const u = await t.register();
    const tomorrow = new Date(Date.now() + 36 * 3600 * 1000).toISOString().slice(0, 10).replace(/-/g, "");
    const r = await submit(u.token, "王五", idNumber(tomorrow));
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("晚于今天");
    const ok = await submit(u.token, "王五", idNumber("19000101"));
    expect(ok.body.code).toBe("SUCCESS");
  });

  it("refuses a name that is not a Chinese name", async () => {
    const u = await t.register();
    const r = await submit(u.token, "<b>x</b>", idNumber());
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("real_name");
  });
});

describe("the sandbox provider and masking", () => {
  it("never returns the full number, in any call", async () => {
    const u = await t.register();
    const id = idNumber("19851122");
    const calls = [
      await submit(u.token, "赵六", id),
      await t.api("GET", "/user/verify", { token: u.token }),
      await t.api("GET", "/user/verify/result", { token: u.token }),
      await t.api("GET", "/user/userInfo", { token: u.token }),
      await t.api("GET", "/super/user/verify", { token: admin, query: { uid: u.uid } }),
      await t.api("GET", "/super/user/detail", { token: admin, query: { uid: u.uid } }),
      await t.api("GET", "/super/user/list", { token: admin, query: { uid: u.uid } }),
      await t.api("GET", "/super/audit", { token: admin }),
    ];
    for (const c of calls) {
      expect(c.body.code).toBe("SUCCESS");
      const text = JSON.stringify(c.body);
      expect(text).not.toContain(id);
      expect(text).not.toContain(id.slice(4, 14));
      expect(text).not.toContain("赵六");
    }
    expect(calls[1].body.data).toMatchObject({
      status: 1,
      real_name: "赵*",
      id_number: `1101**********${id.slice(-4)}`,
    });
    // Nor is it in the database: only the masked form and a keyed hash.
    const row = await t.db.selectFrom("verifications").selectAll().where("uid", "=", u.uid).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(id.slice(4, 14));
    expect(row.id_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("rejects a name with 拒绝 (reason shown, number released) and lets the customer try again", async () => {
    const u = await t.register();
    const id = idNumber();
    const r = await submit(u.token, "拒绝测试", id);
    expect(r.body.data).toMatchObject({ status: 3, reason: expect.stringContaining("不一致") });
    const again = await submit(u.token, "张三", id);
    expect(again.body.data.status).toBe(1);
    const twice = await submit(u.token, "张三", idNumber());
    expect(twice.status).toBe(403);
    expect(twice.body.msg).toContain("已完成");
  });
});

describe("one ID number, one account", () => {
  it("refuses a number another account holds, with a clear message", async () => {
    const a = await t.register();
    const b = await t.register();
    const id = idNumber("19770101");
    expect((await submit(a.token, "张三", id)).body.data.status).toBe(1);
    const r = await submit(b.token, "张三", id.toLowerCase());
    expect(r.status).toBe(409);
    expect(r.body.msg).toContain("已用于其他账号");
    expect((await t.api<VerifyState>("GET", "/user/verify", { token: b.token })).body.data.status).toBe(0);
  });

  it("lets exactly one of ten accounts submitting the same number at once have it", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => t.register()));
    const id = idNumber("19880808");
    const results = await Promise.all(users.map((u) => submit(u.token, "张三", id)));
    expect(results.filter((r) => r.body.code === "SUCCESS")).toHaveLength(1);
    const refused = results.filter((r) => r.body.code !== "SUCCESS");
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.body.msg).toContain("已用于其他账号");
    const rows = await t.db
      .selectFrom("verifications")
      .select("uid")
      .where("id_number_masked", "like", `%${id.slice(-4)}`)
      .execute();
    expect(rows.filter((row) => users.some((u) => u.uid === row.uid))).toHaveLength(1);
  });
});

describe("tunnel creation requires verification (setting)", () => {
  it("refuses an unverified customer with 2001 when on, allows after verification, and the operator can turn it off", async () => {
    const node = await createTestNode(t, {}, admin);
    const set = (on: boolean) =>
      t.api<VerifySetting>("PATCH", "/super/verify/setting", { token: admin, body: { required_for_tunnels: on } });
    expect((await set(true)).body.data).toEqual({ required_for_tunnels: true });
    const u = await t.register();
    const create = () =>
      t.api("POST", "/user/tun", {
        token: u.token,
        body: {
          tun_name: `v${Math.random().toString(36).slice(2, 8)}`,
          node_id: node.node_id,
          protocol: "tcp",
          local_port: 22,
        },
      });
    const refused = await create();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(2001);
    expect(refused.body.msg).toContain("/account/verify");
    const state = await t.api<VerifyState>("GET", "/user/verify", { token: u.token });
    expect(state.body.data.required_for_tunnels).toBe(true);
    await submit(u.token, "张三", idNumber());
    expect((await create()).body.code).toBe("SUCCESS");
    const other = await t.register();
    expect((await set(false)).body.data.required_for_tunnels).toBe(false);
    const free = await t.api("POST", "/user/tun", {
      token: other.token,
      body: { tun_name: "free", node_id: node.node_id, protocol: "tcp", local_port: 22 },
    });
    expect(free.body.code).toBe("SUCCESS");
    const audit = await t.api<{ list: { action: string }[] }>("GET", "/super/audit", {
      token: admin,
      query: { action: "verify.setting" },
    });
    expect(audit.body.data.list.length).toBeGreaterThanOrEqual(2);
  });

  it("is on by default (the env default), and customers may not change it", async () => {
    const t2 = await createTestApp({ VERIFY_REQUIRED_FOR_TUNNELS: "" });
    try {
      const u = await t2.register();
      const s = await t2.api<VerifyState>("GET", "/user/verify", { token: u.token });
      expect(s.body.data.required_for_tunnels).toBe(true);
      const p = await t2.api("PATCH", "/super/verify/setting", {
        token: u.token,
        body: { required_for_tunnels: false },
      });
      expect(p.status).toBe(403);
    } finally {
      await t2.close();
    }
  });
});

describe("operator review", () => {
  it("approves a processing request, rejects with a reason, resets; each audited; a customer cannot", async () => {
    const u = await t.register();
    const id = idNumber("19920229");
    const r = await submit(u.token, "审核张三", id);
    expect(r.body.data.status).toBe(2);
    const view = await t.api<AdminVerifyView>("GET", "/super/user/verify", { token: admin, query: { uid: u.uid } });
    expect(view.body.data).toMatchObject({ uid: u.uid, status: 2, real_name: "审***", provider: "sandbox" });

    const act = (token: string, body: object) => t.api<AdminVerifyView>("POST", "/super/user/verify", { token, body });
    expect((await act(u.token, { uid: u.uid, action: "approve" })).status).toBe(403);
    const noReason = await act(admin, { uid: u.uid, action: "reject" });
    expect(noReason.status).toBe(400);
    expect(noReason.body.msg).toContain("reason");

    expect((await act(admin, { uid: u.uid, action: "approve" })).body.data.status).toBe(1);
    expect((await t.api<VerifyState>("GET", "/user/verify/result", { token: u.token })).body.data.status).toBe(1);
    expect((await act(admin, { uid: u.uid, action: "approve" })).status).toBe(403);

    const rej = await act(admin, { uid: u.uid, action: "reject", reason: "证件照片不清晰" });
    expect(rej.body.data).toMatchObject({ status: 3, reason: "证件照片不清晰" });
    const mine = await t.api<VerifyState>("GET", "/user/verify", { token: u.token });
    expect(mine.body.data).toMatchObject({ status: 3, reason: "证件照片不清晰" });
    // Rejected: the number is free for another account.
    const other = await t.register();
    expect((await submit(other.token, "张三", id)).body.data.status).toBe(1);

    const reset = await act(admin, { uid: other.uid, action: "reset" });
    expect(reset.body.data).toMatchObject({ status: 0, real_name: null, id_number: null });
    const info = await t.api<{ verify_status: number }>("GET", "/user/userInfo", { token: other.token });
    expect(info.body.data.verify_status).toBe(0);
    // Reset releases the number too.
    expect((await submit(u.token, "张三", id)).body.data.status).toBe(1);

    const audit = await t.api<{ list: { action: string; target: string }[] }>("GET", "/super/audit", { token: admin });
    const actions = audit.body.data.list.map((a) => `${a.action} ${a.target}`);
    expect(actions).toContain(`verify.approve user:${u.uid}`);
    expect(actions).toContain(`verify.reject user:${u.uid}`);
    expect(actions).toContain(`verify.reset user:${other.uid}`);
  });

  it("lets support staff read a verification but not act on it", async () => {
    const s = await t.register();
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: s.uid, role: 2 } });
    const staff = await t.login(s.phone, s.password);
    const read = await t.api("GET", "/super/user/verify", { token: staff, query: { uid: s.uid } });
    expect(read.body.code).toBe("SUCCESS");
    const act = await t.api("POST", "/super/user/verify", { token: staff, body: { uid: s.uid, action: "reset" } });
    expect(act.status).toBe(403);
  });
});

describe("the redirect provider", () => {
  const KEY = "provider-test-key-0123456789";
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({
      VERIFY_PROVIDER: "redirect",
      VERIFY_URL: "https://idv.example.com/certify",
      VERIFY_MERCHANT_ID: "m100",
      VERIFY_KEY: KEY,
      PUBLIC_URL: "https://console.example.com",
    });
  });
  afterAll(() => r.close());

  const result = (request_id: string, status: string, extra: Record<string, string> = {}) => {
    const p: Record<string, string> = {
      merchant_id: "m100",
      request_id,
      status,
      reason: status === "rejected" ? "人脸比对未通过" : "",
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    return { ...p, sign: verifySign(["merchant_id", "request_id", "status", "reason", "timestamp"], p, KEY), ...extra };
  };
  const ret = (query: Record<string, string>, headers: Record<string, string> = {}) =>
    r.app.inject({ method: "GET", url: "/api/verify/return", query, headers });

  it("sends the browser to the provider with a signed request built from PUBLIC_URL, and applies a signed return once", async () => {
    const u = await r.register();
    const res = await r.api<VerifyStartResult>("POST", "/user/verify", {
      token: u.token,
      body: { real_name: "张三", id_number: idNumber() },
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    expect(res.body.data.status).toBe(2);
    const url = new URL(res.body.data.redirect_url ?? "");
    expect(url.origin + url.pathname).toBe("https://idv.example.com/certify");
    const q = Object.fromEntries(url.searchParams);
    expect(q.return_url).toBe("https://console.example.com/api/verify/return");
    expect(q.notify_url).toBe("https://console.example.com/api/verify/notify");
    const fields = ["merchant_id", "request_id", "real_name", "id_number", "return_url", "notify_url", "timestamp"];
    expect(q.sign).toBe(verifySign(fields, q, KEY));
    // The number goes to the provider only; the API's own answer shows it masked.
    expect(JSON.stringify({ ...res.body.data, redirect_url: "" })).not.toContain(q.id_number);

    const back = await ret(result(q.request_id, "done"), { host: "evil.example" });
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe("https://console.example.com/account/verify/done");
    expect((await r.api<VerifyState>("GET", "/user/verify/result", { token: u.token })).body.data.status).toBe(1);
    // A replayed "rejected" for the same request changes nothing.
    await ret(result(q.request_id, "rejected"));
    expect((await r.api<VerifyState>("GET", "/user/verify", { token: u.token })).body.data.status).toBe(1);
  });

  it("refuses a forged, altered, extended or foreign result, on the return and on the notify", async () => {
    const u = await r.register();
    const res = await r.api<VerifyStartResult>("POST", "/user/verify", {
      token: u.token,
      body: { real_name: "李四", id_number: idNumber() },
    });
    const requestId = new URL(res.body.data.redirect_url ?? "").searchParams.get("request_id") ?? "";
    const good = result(requestId, "done");
    const forgeries: Record<string, string>[] = [
      { ...good, sign: "0".repeat(64) },
      { ...good, status: "rejected" },
      { ...good, extra: "1" },
      { ...good, merchant_id: "m200" },
      {
        ...result(requestId, "done"),
        sign: verifySign(["merchant_id", "request_id", "status", "reason", "timestamp"], good, "wrong-key-0123456789"),
      },
      result(requestId, "done", { timestamp: "1000000000" }),
    ];
    for (const f of forgeries) {
      const back = await ret(f);
      expect(back.headers.location).toBe("https://console.example.com/account/verify/processing");
      const notify = await r.app.inject({
        method: "POST",
        url: "/api/verify/notify",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams(f).toString(),
      });
      expect(notify.statusCode).toBe(400);
      expect(notify.body).toBe("fail");
    }
    // A field given twice is refused too.
    const twice = await r.app.inject({
      method: "POST",
      url: "/api/verify/notify",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `${new URLSearchParams(good).toString()}&status=rejected`,
    });
    expect(twice.statusCode).toBe(400);
    expect((await r.api<VerifyState>("GET", "/user/verify", { token: u.token })).body.data.status).toBe(2);

    const notify = await r.app.inject({
      method: "POST",
      url: "/api/verify/notify",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(result(requestId, "rejected")).toString(),
    });
    expect(notify.body).toBe("success");
    const state = await r.api<VerifyState>("GET", "/user/verify", { token: u.token });
    expect(state.body.data).toMatchObject({ status: 3, reason: "人脸比对未通过" });
  });
});

describe("the manual provider (production without a provider account)", () => {
  it("takes no name and number without photos of the ID card (the review with photos: verify.evidence.test.ts)", async () => {
    const m = await createTestApp({ VERIFY_PROVIDER: "manual" });
    try {
      const u = await m.register();
      const r = await m.api<VerifyStartResult>("POST", "/user/verify", {
        token: u.token,
        body: { real_name: "张三", id_number: idNumber() },
      });
      expect(r.status).toBe(403);
      expect(r.body.msg).toContain("上传身份证照片");
      const state = await m.api<VerifyState>("GET", "/user/verify", { token: u.token });
      expect(state.body.data).toMatchObject({ status: 0, mode: "manual" });
    } finally {
      await m.close();
    }
  });
});
