import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./harness";

let t: TestApp;
const dist = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-dist-"));
beforeAll(async () => {
  fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Burrow</title>");
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(path.join(dist, "assets", "app.js"), "console.log(1)");
  t = await createTestApp({ WEB_DIST: dist });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe("serving the built web app", () => {
  it("answers app routes with index.html and unknown API paths with a JSON 404", async () => {
    for (const url of ["/", "/dashboard", "/admin/usermgr/list/3", "/no/such/page"]) {
      const r = await t.app.inject({ method: "GET", url });
      expect([url, r.statusCode, r.headers["content-type"]]).toEqual([url, 200, "text/html"]);
    }
    const asset = await t.app.inject({ method: "GET", url: "/assets/app.js" });
    expect(asset.statusCode).toBe(200);
    const missingAsset = await t.app.inject({ method: "GET", url: "/assets/gone.js" });
    expect(missingAsset.statusCode).toBe(404);
    const api = await t.app.inject({ method: "GET", url: "/api/nope" });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe(2004);
  });
});
