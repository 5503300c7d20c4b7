import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, nextPhone, type TestApp } from "../../test/harness";
import { clientKey, memoryRateLimiter } from "./rate-limit";

describe("clientKey", () => {
  it("keys IPv4 by address and IPv6 by its /64", () => {
    expect(clientKey("198.51.100.7")).toBe("198.51.100.7");
    expect(clientKey("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(clientKey("2001:db8:1:2::5")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientKey("2001:db8:1:3::5")).not.toBe(clientKey("2001:db8:1:2::5"));
  });
});

describe("the in-process limiter", () => {
  it("stays within its key cap by dropping the oldest counters, keeping the newest", async () => {
    const limiter = memoryRateLimiter({ maxKeys: 1_000 });
    for (let i = 0; i < 3; i++) await limiter.hit("oldest", 5, 3600);
    for (let i = 0; i < 5_000; i++) await limiter.hit(`flood:${i}`, 5, 3600);
    expect(await limiter.peek("oldest")).toBe(0);
    expect(await limiter.peek("flood:4999")).toBe(1);
    expect(await limiter.peek("flood:3999")).toBe(0);
    expect(await limiter.peek("flood:4500")).toBe(1);
  });
});

describe("per-address limits over IPv6", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("counts every address of one /64 as one client (SMS: 30 an hour)", async () => {
    let sent = 0;
    for (let i = 1; i <= 40; i++) {
      const r = await t.api("POST", "/auth/sms", {
        body: { phone: nextPhone(), scene: "register" },
        ip: `2001:db8:1:2::${i.toString(16)}`,
      });
      if (r.body.code === "SUCCESS") sent++;
    }
    expect(sent).toBe(30);
    // Another /64 has its own budget.
    const other = await t.api("POST", "/auth/sms", {
      body: { phone: nextPhone(), scene: "register" },
      ip: "2001:db8:1:3::1",
    });
    expect(other.body.code).toBe("SUCCESS");
  });
});
