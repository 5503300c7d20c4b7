import { fenToYuan, yuanToFen } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { formatBytes, formatTime, maskPhone, maskSecret, phoneText } from "./format";

describe("money", () => {
  it("shows fen as yuan with two decimals", () => {
    expect(fenToYuan(0)).toBe("0.00");
    expect(fenToYuan(1)).toBe("0.01");
    expect(fenToYuan(1230)).toBe("12.30");
    expect(fenToYuan(-550)).toBe("-5.50");
    expect(fenToYuan(123456789)).toBe("1234567.89");
  });

  it("turns typed yuan into integer fen without float noise", () => {
    expect(yuanToFen(0.1 + 0.2)).toBe(30);
    expect(yuanToFen(19.99)).toBe(1999);
    expect(yuanToFen(1.005)).toBe(100);
    expect(yuanToFen(-2.5)).toBe(-250);
  });
});

describe("formatTime", () => {
  it("shows API UTC times in Asia/Shanghai", () => {
    expect(formatTime("2025-01-01T00:00:00.000Z")).toBe("2025-01-01 08:00:00");
    expect(formatTime("2024-12-31T16:30:05Z")).toBe("2025-01-01 00:30:05");
  });

  it("shows a dash for empty or invalid input", () => {
    expect(formatTime(null)).toBe("-");
    expect(formatTime(undefined)).toBe("-");
    expect(formatTime("")).toBe("-");
    expect(formatTime("not a date")).toBe("-");
  });
});

describe("masking", () => {
  it("keeps the ends of a secret", () => {
    expect(maskSecret("abcd1234efgh5678")).toBe("abcd••••••••5678");
    expect(maskSecret("short")).toBe("•••••");
  });

  it("masks the middle of a phone number", () => {
    expect(maskPhone("13800001234")).toBe("138****1234");
    expect(maskPhone("+8613800001234")).toBe("+8613800001234");
  });
});

describe("formatBytes", () => {
  it("uses binary units with two decimals", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1536)).toBe("1.50 KB");
    expect(formatBytes(10 * 1024 ** 3)).toBe("10.00 GB");
    expect(formatBytes(2 * 1024 ** 6)).toBe("2048.00 PB");
  });

  it("treats negative and invalid values as nothing", () => {
    expect(formatBytes(-5)).toBe("0 B");
    expect(formatBytes(0.4)).toBe("0 B");
    expect(formatBytes(204.8)).toBe("205 B");
    expect(formatBytes(Number.NaN)).toBe("0 B");
  });
});

describe("phoneText", () => {
  it("shows a customer's phone, and 未绑定 for an account without one (the API's \"\")", () => {
    expect(phoneText("13800000000")).toBe("13800000000");
    expect(phoneText("")).toBe("未绑定");
  });
});
