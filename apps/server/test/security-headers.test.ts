import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helmetOptions } from "../src/app";
import { helmetHeaders } from "../src/http/security-headers";
import { createTestApp, type TestApp } from "./harness";

// Issue 19 §4: security headers on the console and the API.

const dist = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-dist-"));
let t: TestApp;
beforeAll(async () => {
  fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Burrow</title>");
  fs.mkdirSync(path.join(dist, "assets"));
  fs.writeFileSync(path.join(dist, "assets", "app.js"), "console.log(1)");
  t = await createTestApp({ WEB_DIST: dist, PUBLIC_URL: "http://console.example.com" });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

/** The CSP as a map of directive → sources. */
const csp = (header: unknown) =>
  Object.fromEntries(
    String(header)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );

describe("security headers", () => {
  it("are sent on pages and assets, and on the API's HTML pages (reference, sandbox cashier)", async () => {
    for (const url of ["/dashboard", "/assets/app.js", "/api/docs", "/api/pay/sandbox/submit.php"]) {
      const r = await t.app.inject({ method: "GET", url });
      const h = r.headers;
      expect(h["x-content-type-options"], url).toBe("nosniff");
      expect(h["x-frame-options"], url).toBe("DENY");
      expect(h["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
      const policy = csp(h["content-security-policy"]);
      expect(policy["frame-ancestors"], url).toEqual(["'none'"]);
      expect(policy["default-src"], url).toEqual(["'self'"]);
      // No inline or eval'd script: only files from this origin.
      expect(policy["script-src"], url).toEqual(["'self'"]);
      expect(policy["script-src-attr"], url).toEqual(["'none'"]);
      expect(policy["object-src"], url).toEqual(["'none'"]);
      expect(policy["base-uri"], url).toEqual(["'self'"]);
      // antd's CSS-in-JS inserts <style> elements at runtime.
      expect(policy["style-src"], url).toEqual(["'self'", "'unsafe-inline'"]);
      expect(policy["form-action"], url).toEqual(["'self'", "http://console.example.com"]);
      // Plain http: no HSTS and no upgrade of requests to a TLS the site does not have.
      expect(h["strict-transport-security"], url).toBeUndefined();
      expect(policy["upgrade-insecure-requests"], url).toBeUndefined();
    }
  });

  it("on the API's answers (JSON, its errors) the short set: nothing may run in them, frame them or sniff them", async () => {
    for (const url of ["/api/public/site", "/api/nope", "/api/user/userInfo"]) {
      const r = await t.app.inject({ method: "GET", url });
      const h = r.headers;
      expect(String(h["content-type"]), url).toMatch(/^application\/json/);
      expect(h["x-content-type-options"], url).toBe("nosniff");
      expect(h["x-frame-options"], url).toBe("DENY");
      expect(h["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
      expect(csp(h["content-security-policy"]), url).toEqual({
        "default-src": ["'none'"],
        "frame-ancestors": ["'none'"],
      });
      expect(h["strict-transport-security"], url).toBeUndefined();
    }
  });

  it("are not sent on the frps plugin endpoint (frps is not a browser; it is called for every visitor)", async () => {
    const r = await t.app.inject({
      method: "POST",
      url: "/api/frp/plugin/999999/nope?op=Login&version=0.1.0",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ version: "0.1.0", op: "Login", content: {} }),
    });
    expect(r.statusCode).toBe(403);
    expect(r.headers["content-security-policy"]).toBeUndefined();
    expect(r.headers["x-frame-options"]).toBeUndefined();
  });

  it("adds HSTS (without subdomains) and upgrade-insecure-requests only when PUBLIC_URL is https", async () => {
    const s = await createTestApp({ PUBLIC_URL: "https://console.example.com" });
    try {
      const r = await s.app.inject({ method: "GET", url: "/api/public/site" });
      expect(r.headers["strict-transport-security"]).toBe("max-age=31536000");
      // Pages get the upgrade (a JSON answer loads nothing).
      const page = new Map(helmetHeaders(helmetOptions(s.ctx.config)).set.map(([k, v]) => [k.toLowerCase(), v]));
      expect(csp(page.get("content-security-policy"))["upgrade-insecure-requests"]).toEqual([]);
      expect(page.get("strict-transport-security")).toBe("max-age=31536000");
    } finally {
      await s.close();
    }
  });

  it("the web app's index.html has no inline script (the CSP would refuse it)", () => {
    const html = fs.readFileSync(path.resolve(import.meta.dirname, "../../web/index.html"), "utf8");
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});
