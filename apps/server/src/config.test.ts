import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";

describe("configuration", () => {
  it("has working defaults", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.DATA_DIR).toBe("./data");
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SMS_DRIVER).toBe("console");
  });

  it("lists every bad variable in one readable error", () => {
    expect(() => loadConfig({ PORT: "http", DATABASE_URL: "mysql://x", JWT_SECRET: "short" })).toThrowError(
      /PORT[\s\S]*DATABASE_URL[\s\S]*JWT_SECRET/,
    );
    expect(() => loadConfig({ SMS_DRIVER: "http" })).toThrowError(/SMS_HTTP_URL/);
  });

  it("reads TRUST_PROXY as false, a hop count, or proxy addresses — never 'trust all'", () => {
    const tp = (v?: string) => loadConfig({ TRUST_PROXY: v }).TRUST_PROXY;
    expect(tp()).toBe(false);
    expect(tp("false")).toBe(false);
    expect(tp("true")).toBe(1);
    expect(tp("2")).toBe(2);
    expect(tp("127.0.0.1, 10.0.0.0/8,::1")).toEqual(["127.0.0.1", "10.0.0.0/8", "::1"]);
    expect(() => tp("*")).toThrowError(/TRUST_PROXY/);
  });
});
