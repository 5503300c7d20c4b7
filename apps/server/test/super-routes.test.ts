import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registeredRoutes } from "../src/http/route";
import { createTestApp, type TestApp } from "./harness";

/** Walks every registered /super route: anonymous → 401/30001, customer → 403/30004, staff only where allowed. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("every /super route checks the role on the server", () => {
  it("refuses anonymous callers, customers, and support staff on manager routes", async () => {
    const customer = await t.register();
    const staffUser = await t.register();
    const admin = await t.adminToken();
    await t.api("PATCH", "/super/user/info", { token: admin, body: { uid: staffUser.uid, role: 2 } });
    const staff = await t.login(staffUser.phone, staffUser.password);
    const routes = [...registeredRoutes].filter(([key]) => key.split(" ")[1].startsWith("/super"));
    expect(routes.length).toBeGreaterThan(5);
    for (const [key, access] of routes) {
      const [method, url] = key.split(" ");
      const concrete = url.replace(/:(\w+)/g, "1");
      const anon = await t.api(method, concrete, { body: method === "GET" ? undefined : {} });
      expect([key, anon.status, anon.body.code]).toEqual([key, 401, 30001]);
      const c = await t.api(method, concrete, { token: customer.token, body: method === "GET" ? undefined : {} });
      expect([key, c.status, c.body.code]).toEqual([key, 403, 30004]);
      const s = await t.api(method, concrete, { token: staff, body: method === "GET" ? undefined : {} });
      if (access === "manager") expect([key, s.status, s.body.code]).toEqual([key, 403, 30004]);
      else expect([key, s.body.code]).not.toEqual([key, 30004]);
    }
  });
});
