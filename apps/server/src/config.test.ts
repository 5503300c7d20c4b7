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
});
