import { describe, expect, it } from "vitest";
import { addressRefusal } from "./guarded-post";

describe("webhook addresses", () => {
  it("lets public receivers of either family through", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111", "2001:4860:4860::8888"])
      expect([ip, addressRefusal(ip, false)]).toEqual([ip, null]);
  });

  it("refuses private, loopback, link-local and every IPv6 form that embeds an IPv4 address", () => {
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "169.254.169.254",
      "192.168.1.1",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:8.8.8.8",
      "::ffff:127.0.0.1",
      "::ffff:0:7f00:1",
      "::7f00:1",
      "64:ff9b::808:808",
      "2002:7f00:1::",
    ])
      expect([ip, addressRefusal(ip, false)]).toEqual([ip, expect.stringContaining("已拒绝")]);
  });

  it("lets the plain loopback through only when allowed (tests), never its mapped forms", () => {
    expect(addressRefusal("127.0.0.1", true)).toBeNull();
    expect(addressRefusal("::1", true)).toBeNull();
    expect(addressRefusal("::ffff:127.0.0.1", true)).toContain("已拒绝");
    expect(addressRefusal("10.0.0.1", true)).toContain("已拒绝");
  });
});
