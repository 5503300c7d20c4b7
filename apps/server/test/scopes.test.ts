import { ErrorCode, endpointScope, Role, type Scope, Scopes } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registeredScopes } from "../src/http/route";
import { allEndpoints } from "../src/modules/apidocs/openapi";
import { AppError } from "../src/shared/errors";
import { createTestApp, type TestApp } from "./harness";

/**
 * Authentication as an extension point (issue 31 §4): every endpoint needs a scope it can name,
 * the one authorize path refuses a credential without it, and a credential kind registered on
 * ctx.auth — nothing else touched — is understood by every route.
 */
let t: TestApp;
let customer: { uid: number; token: string };

beforeAll(async () => {
  t = await createTestApp();
  customer = await t.register();
  // A stand-in for the API tokens of issue 34: "tst_<uid>_<role>_<scope,scope>", claimed by prefix.
  t.ctx.auth.register({
    name: "test-token",
    claims: (bearer) => bearer.startsWith("tst_"),
    authenticate: async (bearer) => {
      const [, uid, role, scopes] = bearer.split("_");
      if (!uid || !role) throw new AppError(ErrorCode.TokenMissing, 401, "bad test token");
      return {
        uid: Number(uid),
        role: Number(role),
        kind: "test-token",
        credentialId: bearer,
        scopes: new Set((scopes ?? "").split(",").filter(Boolean) as Scope[]),
      };
    },
  });
});
afterAll(() => t.close());

describe("endpoint scopes", () => {
  it("every endpoint has a resolvable scope, and is served with it", () => {
    const eps = allEndpoints();
    expect(eps.length).toBeGreaterThan(100);
    for (const { ep } of eps) {
      const key = `${ep.method} ${ep.url}`;
      const scope = endpointScope(ep);
      if (ep.access === "public") {
        // A scope on a public endpoint would never be checked: say so rather than pretend.
        expect([key, ep.scope]).toEqual([key, undefined]);
        expect(scope).toBeNull();
        expect(registeredScopes.has(key)).toBe(false);
      } else {
        expect([key, Scopes.includes(scope as Scope)]).toEqual([key, true]);
        expect([key, registeredScopes.get(key)]).toEqual([key, scope]);
      }
    }
  });

  it("defaults by access level; only customer endpoints are narrower", () => {
    for (const { ep } of allEndpoints()) {
      if (ep.access === "staff" || ep.access === "manager") expect(endpointScope(ep)).toBe("admin");
      if (ep.scope === "appeal") expect([ep.url, ep.access]).toEqual([ep.url, "user"]);
    }
    expect(allEndpoints().filter(({ ep }) => ep.scope === "appeal").length).toBe(5);
  });
});

describe("ctx.auth", () => {
  it("a registered credential kind reaches the routes through the one authorize path", async () => {
    // The session kind first; the app's other kinds (API tokens, …) between; the test's last.
    expect(t.ctx.auth.names[0]).toBe("session");
    expect(t.ctx.auth.names).toContain("token");
    expect(t.ctx.auth.names.at(-1)).toBe("test-token");
    // userInfo needs "account:read" (an API token scope); a console session grants every scope.
    const r = await t.api<{ uid: number }>("GET", "/user/userInfo", {
      token: `tst_${customer.uid}_${Role.Customer}_account:read`,
    });
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data.uid).toBe(customer.uid);
  });

  it("refuses a credential lacking the endpoint's scope: 403, naming the scope", async () => {
    const r = await t.api("GET", "/user/loginList", { token: `tst_${customer.uid}_${Role.Customer}_appeal` });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe(ErrorCode.NoPermission);
    expect(r.body.msg).toBe("当前登录凭证无权调用此接口（需要权限范围 console）");
    const narrow = await t.api("GET", "/user/userInfo", { token: `tst_${customer.uid}_${Role.Customer}_console` });
    expect([narrow.status, narrow.body.msg]).toEqual([403, "当前登录凭证无权调用此接口（需要权限范围 account:read）"]);
    // A Manager's credential without "admin" reaches no /super endpoint, whatever the role says.
    const admin = await t.api<{ uid: number }>("GET", "/user/userInfo", { token: await t.adminToken() });
    const mgr = await t.api("GET", "/super/user/list", { token: `tst_${admin.body.data.uid}_${Role.Manager}_console` });
    expect(mgr.status).toBe(403);
    expect(mgr.body.msg).toContain("admin");
    const ok = await t.api("GET", "/super/user/list", {
      token: `tst_${admin.body.data.uid}_${Role.Manager}_console,admin`,
    });
    expect(ok.body.code).toBe("SUCCESS");
  });

  it("checks the role before the scope, and leaves public endpoints alone", async () => {
    const r = await t.api("GET", "/super/user/list", { token: `tst_${customer.uid}_${Role.Customer}_console,admin` });
    expect([r.status, r.body.code, r.body.msg]).toEqual([403, ErrorCode.NoPermission, "无权访问"]);
    const site = await t.api("GET", "/public/site", { token: `tst_${customer.uid}_${Role.Customer}_` });
    expect(site.body.code).toBe("SUCCESS");
  });

  it("a bearer value no kind claims is 401/30001; the session kind still works", async () => {
    const r = await t.api("GET", "/user/userInfo", { token: "not-a-credential" });
    expect([r.status, r.body.code]).toEqual([401, ErrorCode.TokenMissing]);
    const s = await t.api("GET", "/user/userInfo", { token: customer.token });
    expect(s.body.code).toBe("SUCCESS");
  });

  it("a kind registers once", () => {
    expect(() =>
      t.ctx.auth.register({ name: "session", claims: () => false, authenticate: () => Promise.reject(new Error()) }),
    ).toThrow(/twice/);
  });
});
