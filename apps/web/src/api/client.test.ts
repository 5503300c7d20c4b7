import { describe, expect, it } from "vitest";
import { ApiError, splitFieldMessage } from "./client";

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
