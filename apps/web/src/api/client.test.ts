import { describe, expect, it } from "vitest";
import { ApiError, filenameFromDisposition, splitFieldMessage, takeSseEvents } from "./client";

describe("splitFieldMessage", () => {
  it("takes the field from a 10000 message", () => {
    expect(splitFieldMessage("phone: 手机号格式不正确")).toEqual({ field: "phone", text: "手机号格式不正确" });
    expect(splitFieldMessage("plan.fee: 必须大于 0")).toEqual({ field: "plan.fee", text: "必须大于 0" });
  });

  it("leaves messages without a field, or about the whole body, whole", () => {
    expect(splitFieldMessage("参数错误")).toEqual({ text: "参数错误" });
    expect(splitFieldMessage("body: Unexpected end of JSON input")).toEqual({
      text: "body: Unexpected end of JSON input",
    });
  });
});

describe("ApiError", () => {
  it("classifies session and permission codes", () => {
    for (const code of [30001, 30002, 30003]) expect(new ApiError(code, 401, "x").isSessionInvalid).toBe(true);
    expect(new ApiError(30004, 403, "x").isForbidden).toBe(true);
    expect(new ApiError(2001, 403, "x").isSessionInvalid).toBe(false);
    expect(new ApiError(2001, 403, "x").isForbidden).toBe(false);
  });
});

describe("filenameFromDisposition", () => {
  it("reads plain and RFC 5987 file names", () => {
    expect(filenameFromDisposition('attachment; filename="gift-cards-GC2026.csv"')).toBe("gift-cards-GC2026.csv");
    expect(filenameFromDisposition("attachment; filename*=UTF-8''%E7%A4%BC%E5%93%81%E5%8D%A1.csv")).toBe("礼品卡.csv");
    expect(filenameFromDisposition("attachment; filename=plain.csv")).toBe("plain.csv");
  });

  it("answers undefined without a name, and keeps a name that is not valid URI encoding", () => {
    expect(filenameFromDisposition("")).toBeUndefined();
    expect(filenameFromDisposition("inline")).toBeUndefined();
    expect(filenameFromDisposition('attachment; filename="100%.csv"')).toBe("100%.csv");
  });
});

describe("takeSseEvents", () => {
  it("reads complete events and keeps the unfinished tail", () => {
    const text =
      'event: delta\ndata: {"type":"delta","text":"你"}\n\nevent: delta\r\ndata: {"type":"delta","text":"好"}\r\n\r\nevent: done\ndata: {"ty';
    const { events, rest } = takeSseEvents(text);
    expect(events).toEqual([
      { type: "delta", text: "你" },
      { type: "delta", text: "好" },
    ]);
    expect(rest).toBe('event: done\ndata: {"ty');
  });

  it("skips comments and data that is not JSON", () => {
    expect(takeSseEvents(": ping\n\ndata: nope\n\n").events).toEqual([]);
  });
});
