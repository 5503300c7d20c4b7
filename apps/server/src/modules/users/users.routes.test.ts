import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextPhone, type TestApp } from "../../../test/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100" +
    "05fe02fea72d7d0000000049454e44ae426082",
  "hex",
);

function multipart(file: Buffer, filename: string, type: string) {
  const boundary = "----burrowtest";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe("personal info", () => {
  it("returns personal_info with avatar and phone_number", async () => {
    const u = await t.register();
    const r = await t.api<Record<string, unknown>>("GET", "/user/userInfo", { token: u.token });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({
      uid: u.uid,
      role: 1,
      balance: 0,
      verify_status: 0,
      personal_info: { avatar: "", phone_number: u.phone },
    });
    expect(r.body.data).not.toHaveProperty("password_hash");
  });

  it("edits the nickname and rejects an empty one naming the field", async () => {
    const u = await t.register();
    const ok = await t.api<{ nickname: string }>("PATCH", "/user/info", { token: u.token, body: { nickname: "小明" } });
    expect(ok.body.data.nickname).toBe("小明");
    const bad = await t.api("PATCH", "/user/info", { token: u.token, body: { nickname: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("nickname");
  });

  it("refuses an avatar URL that was not uploaded by this user", async () => {
    const u = await t.register();
    const r = await t.api("PATCH", "/user/info", { token: u.token, body: { avatar: "https://evil.example/x.png" } });
    expect(r.body.code).toBe(10000);
    expect(r.body.msg).toContain("avatar");
  });

  it("accepts only the exact path of this user's own upload as the avatar", async () => {
    const u = await t.register();
    const other = await t.register();
    const hex = "0123456789abcdef";
    const own = `/api/uploads/avatars/${u.uid}-${hex}.png`;
    for (const avatar of [
      `/api/uploads/avatars/${u.uid}-../../../etc/passwd`,
      `/api/uploads/avatars/${u.uid}-${hex}.png/../../../x`,
      `/api/uploads/avatars/${u.uid}-%2e%2e%2f%2e%2e%2fx.png`,
      `/api/uploads/avatars/${u.uid}-..%2f..%2f${hex}.png`,
      `/api/uploads/avatars/${u.uid}-${hex}.png?x=1`,
      `/api/uploads/avatars/${u.uid}-${hex}.png#x`,
      `/api/uploads/avatars/${u.uid}-${hex}.svg`,
      `/api/uploads/avatars/${u.uid}-${hex.toUpperCase()}.png`,
      `/api/uploads/avatars/${u.uid}-${hex}0.png`,
      `/api/uploads/avatars/0${u.uid}-${hex}.png`,
      `/api/uploads/avatars/${u.uid}1-${hex}.png`,
      `/api/uploads/avatars/${other.uid}-${hex}.png`,
      `//evil.example/api/uploads/avatars/${u.uid}-${hex}.png`,
      `https://evil.example/api/uploads/avatars/${u.uid}-${hex}.png`,
      `/api/uploads/avatars/../avatars/${u.uid}-${hex}.png`,
      `\\api\\uploads\\avatars\\${u.uid}-${hex}.png`,
      `javascript:alert(1)//${own}`,
      `${own}\n`.replace("\n", "\u0000"),
    ]) {
      const r = await t.api("PATCH", "/user/info", { token: u.token, body: { avatar } });
      expect([avatar, r.status, r.body.code]).toEqual([avatar, 400, 10000]);
      expect(r.body.msg).toContain("avatar");
    }
    const info = await t.api<{ personal_info: { avatar: string } }>("GET", "/user/userInfo", { token: u.token });
    expect(info.body.data.personal_info.avatar).toBe("");
    const ok = await t.api("PATCH", "/user/info", { token: u.token, body: { avatar: own } });
    expect(ok.body.code).toBe("SUCCESS");
    const cleared = await t.api("PATCH", "/user/info", { token: u.token, body: { avatar: "" } });
    expect(cleared.body.code).toBe("SUCCESS");
  });

  it("stores an uploaded avatar, serves it, and refuses non-images", async () => {
    const u = await t.register();
    const { body, contentType } = multipart(PNG, "a.png", "image/png");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/user/avatar",
      headers: { authorization: `Bearer ${u.token}`, "content-type": contentType },
      payload: body,
    });
    expect(res.json().code).toBe("SUCCESS");
    const url: string = res.json().data.url;
    expect(url).toMatch(new RegExp(`^/api/uploads/avatars/${u.uid}-[0-9a-f]{16}\\.png$`));
    const img = await t.app.inject({ method: "GET", url });
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toBe("image/png");
    const info = await t.api<{ personal_info: { avatar: string } }>("GET", "/user/userInfo", { token: u.token });
    expect(info.body.data.personal_info.avatar).toBe(url);

    const txt = multipart(Buffer.from("hello"), "a.png", "image/png");
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/user/avatar",
      headers: { authorization: `Bearer ${u.token}`, "content-type": txt.contentType },
      payload: txt.body,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain("file");
  });

  it("refuses an avatar over 2 MB or a body without a file, and serves a stored one byte for byte, cached for good", async () => {
    const u = await t.register();
    const post = (payload: Buffer | string, contentType: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/user/avatar",
        headers: { authorization: `Bearer ${u.token}`, "content-type": contentType },
        payload,
      });
    // A real PNG header, padded past the limit: refused for its size, nothing stored.
    const big = multipart(Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), "a.png", "image/png");
    const tooBig = await post(big.body, big.contentType);
    expect([tooBig.statusCode, tooBig.json().code, tooBig.json().msg]).toEqual([
      400,
      10000,
      expect.stringContaining("2 MB"),
    ]);
    const none = await post("{}", "application/json");
    expect([none.statusCode, none.json().msg]).toEqual([400, expect.stringContaining("file")]);
    const dir = path.join(t.ctx.config.DATA_DIR, "uploads", "avatars");
    expect(fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith(`${u.uid}-`)) : []).toEqual([]);

    const ok = multipart(PNG, "a.png", "image/png");
    const url: string = (await post(ok.body, ok.contentType)).json().data.url;
    const img = await t.app.inject({ method: "GET", url });
    expect([img.statusCode, img.headers["content-type"], img.headers["cache-control"]]).toEqual([
      200,
      "image/png",
      "public, max-age=31536000, immutable",
    ]);
    expect(img.rawPayload.equals(PNG)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: url.replace(/\.png$/, ".gif") })).statusCode).toBe(404);
  });

  it("keeps one avatar file per customer and limits uploads to ten an hour", async () => {
    const u = await t.register();
    const upload = () => {
      const { body, contentType } = multipart(PNG, "a.png", "image/png");
      return t.app.inject({
        method: "POST",
        url: "/api/user/avatar",
        headers: { authorization: `Bearer ${u.token}`, "content-type": contentType },
        payload: body,
      });
    };
    const codes: unknown[] = [];
    for (let i = 0; i < 12; i++) codes.push((await upload()).json().code);
    expect(codes.filter((c) => c === "SUCCESS")).toHaveLength(10);
    expect(codes.slice(10)).toEqual([2029, 2029]);
    const dir = path.join(t.ctx.config.DATA_DIR, "uploads", "avatars");
    const mine = fs.readdirSync(dir).filter((f) => f.startsWith(`${u.uid}-`));
    expect(mine).toHaveLength(1);
    const info = await t.api<{ personal_info: { avatar: string } }>("GET", "/user/userInfo", { token: u.token });
    expect(info.body.data.personal_info.avatar).toBe(`/api/uploads/avatars/${mine[0]}`);
  });
});

describe("password, phone and frp token", () => {
  it("changes the password, revoking every session", async () => {
    const u = await t.register();
    const wrong = await t.api("POST", "/user/password", {
      token: u.token,
      body: { old_password: "nope-nope", password: "another-pass-1" },
    });
    expect(wrong.body.msg).toContain("old_password");
    const ok = await t.api("POST", "/user/password", {
      token: u.token,
      body: { old_password: u.password, password: "another-pass-1" },
    });
    expect(ok.body.code).toBe("SUCCESS");
    expect((await t.api("GET", "/user/userInfo", { token: u.token })).body.code).toBe(30003);
    await t.login(u.phone, "another-pass-1");
  });

  it("moves the account to a new phone proven by an SMS code", async () => {
    const u = await t.register();
    const other = await t.register();
    // A number in use is refused once its code is proven (the SMS answer does not tell: docs/security.md).
    await t.api("POST", "/auth/sms", { body: { phone: other.phone, scene: "phone" } });
    const taken = await t.api("POST", "/user/phone", {
      token: u.token,
      body: { phone: other.phone, code: t.sms.last(other.phone) },
    });
    expect(taken.body.code).toBe(40008);
    const phone = nextPhone();
    await t.api("POST", "/auth/sms", { body: { phone, scene: "phone" } });
    const r = await t.api<{ personal_info: { phone_number: string } }>("POST", "/user/phone", {
      token: u.token,
      body: { phone, code: t.sms.last(phone) },
    });
    expect(r.body.data.personal_info.phone_number).toBe(phone);
    await t.login(phone, u.password);
  });

  it("resets the frp access token", async () => {
    const u = await t.register();
    const before = await t.api<{ frp_token: string }>("GET", "/user/userInfo", { token: u.token });
    const r = await t.api<{ frp_token: string }>("POST", "/user/frpToken", { token: u.token });
    expect(r.body.data.frp_token).toMatch(/^[\w-]{20,}$/);
    expect(r.body.data.frp_token).not.toBe(before.body.data.frp_token);
  });

  it("pages the login history and validates paging", async () => {
    const u = await t.register();
    await t.login(u.phone, u.password);
    await t.login(u.phone, u.password);
    const r = await t.api<{ list: unknown[]; total: number; page: number; size: number }>("GET", "/user/loginList", {
      token: u.token,
      query: { page: 1, size: 2 },
    });
    expect(r.body.data).toMatchObject({ total: 3, page: 1, size: 2 });
    expect(r.body.data.list).toHaveLength(2);
    const bad = await t.api("GET", "/user/loginList", { token: u.token, query: { size: 1000 } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("size");
  });
});

describe("menus", () => {
  it("gives customers their menu, with icon keys from the SPEC list only", async () => {
    const { MenuIconKeys } = await import("@burrow/contract");
    const u = await t.register();
    const r = await t.api<{ path: string; icon: string }[]>("GET", "/user/rolemenu", { token: u.token });
    const paths = r.body.data.map((m) => m.path);
    expect(paths).toContain("/dashboard");
    expect(paths).toContain("/account/info");
    expect(paths).not.toContain("/adm");
    for (const m of r.body.data) expect(MenuIconKeys).toContain(m.icon);
  });

  it("shows the admin entry and the admin menu to a Manager only", async () => {
    const admin = await t.adminToken();
    const menu = await t.api<{ path: string }[]>("GET", "/user/rolemenu", { token: admin });
    expect(menu.body.data.map((m) => m.path)).toContain("/adm");
    const adm = await t.api<{ path: string }[]>("GET", "/super/roleMenu", { token: admin });
    expect(adm.body.data.map((m) => m.path)).toEqual(expect.arrayContaining(["/view", "/usermgr/list", "/dash"]));
    const u = await t.register();
    const refused = await t.api("GET", "/super/roleMenu", { token: u.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(30004);
  });
});

describe("site", () => {
  it("serves the footer values and a health check", async () => {
    const r = await t.api<Record<string, unknown>>("GET", "/public/site");
    expect(r.body.data).toMatchObject({ brand: "Burrow", copyright_start: 2024 });
    expect(r.body.data.icp_no).toBeTruthy();
    expect((await t.api("GET", "/healthz")).body.code).toBe("SUCCESS");
  });
});
