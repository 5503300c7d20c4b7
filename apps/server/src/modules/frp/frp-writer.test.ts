import { visitorIp } from "@burrow/frp-decision";
import { describe, expect, it } from "vitest";

describe("visitorIp", () => {
  it("drops the port of IPv4 and bracketed IPv6 addresses", () => {
    expect(visitorIp("198.51.100.9:40112")).toBe("198.51.100.9");
    expect(visitorIp("[2001:db8::7]:443")).toBe("2001:db8::7");
    expect(visitorIp("[2001:db8::7]")).toBe("2001:db8::7");
  });

  it("keeps what has no port as it is", () => {
    expect(visitorIp("198.51.100.9")).toBe("198.51.100.9");
    expect(visitorIp("2001:db8::7")).toBe("2001:db8::7");
    expect(visitorIp("")).toBe("");
  });
});
