import { createHash } from "node:crypto";
import { fenToYuan } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config";
import { buildPayUrl, epaySign, epayVerify, gatewayKeys, parseYuan, SANDBOX_KEY } from "./epay";

describe("epay signing", () => {
  it("signs non-empty parameters except sign/sign_type, sorted by key, joined k=v&…, key appended, MD5 lower-case", () => {
    const params = {
      type: "alipay",
      pid: "1001",
      out_trade_no: "20261122100000123456",
      money: "12.30",
      name: "套餐",
      empty: "",
      sign: "ignored",
      sign_type: "MD5",
    };
    const expected = createHash("md5")
      .update("money=12.30&name=套餐&out_trade_no=20261122100000123456&pid=1001&type=alipayKEY123")
      .digest("hex");
    expect(epaySign(params, "KEY123")).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{32}$/);
  });

  it("verifies its own signature and refuses any change, a wrong key or a malformed sign", () => {
    const params = { pid: "1001", money: "1.00", out_trade_no: "T1", trade_status: "TRADE_SUCCESS" };
    const signed = { ...params, sign: epaySign(params, "k"), sign_type: "MD5" };
    expect(epayVerify(signed, "k")).toBe(true);
    expect(epayVerify({ ...signed, sign: signed.sign.toUpperCase() }, "k")).toBe(true);
    expect(epayVerify({ ...signed, money: "1.01" }, "k")).toBe(false);
    expect(epayVerify(signed, "other")).toBe(false);
    expect(epayVerify({ ...signed, sign: "xyz" }, "k")).toBe(false);
    expect(epayVerify({ ...params }, "k")).toBe(false);
  });
});

describe("money", () => {
  it("converts yuan strings to fen exactly and refuses anything else", () => {
    expect(parseYuan("12.30")).toBe(1230);
    expect(parseYuan("12.3")).toBe(1230);
    expect(parseYuan("0.01")).toBe(1);
    expect(parseYuan("100")).toBe(10000);
    expect(parseYuan("0.1")).toBe(10);
    for (const bad of ["-1.00", "1.234", "abc", "", "1e3", undefined, 12]) expect(parseYuan(bad)).toBeNull();
    expect(fenToYuan(1230)).toBe("12.30");
    expect(fenToYuan(5)).toBe("0.05");
    expect(fenToYuan(100000)).toBe("1000.00");
  });
});

describe("gateway configuration", () => {
  it("defaults to the sandbox outside production and refuses it in production", () => {
    const dev = loadConfig({});
    expect(gatewayKeys(dev)).toEqual({ kind: "sandbox", pid: "1000", key: SANDBOX_KEY });
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrowError(/EPAY_URL[\s\S]*EPAY_PID[\s\S]*EPAY_KEY/);
    expect(() =>
      loadConfig({ NODE_ENV: "production", PAY_GATEWAY: "sandbox", EPAY_URL: "https://pay.example.com" }),
    ).toThrowError(/PAY_GATEWAY: the sandbox gateway is refused in production/);
    expect(() => loadConfig({ PAY_GATEWAY: "epay", EPAY_URL: "not a url", EPAY_PID: "1", EPAY_KEY: "k" })).toThrowError(
      /EPAY_URL[\s\S]*EPAY_KEY/,
    );
  });

  it("builds the redirect to <EPAY_URL>/submit.php with every signed parameter", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      EPAY_URL: "https://pay.example.com/",
      EPAY_PID: "2024",
      EPAY_KEY: "merchant-key-1",
      PUBLIC_URL: "https://console.example.com/",
    });
    const url = new URL(
      buildPayUrl(config, {
        trade_id: "20261122100000123456",
        name: "购买套餐「专业版」月付",
        amount: 1990,
        pay_type: "wxpay",
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe("https://pay.example.com/submit.php");
    const p = Object.fromEntries(url.searchParams);
    expect(p).toMatchObject({
      pid: "2024",
      type: "wxpay",
      out_trade_no: "20261122100000123456",
      notify_url: "https://console.example.com/api/pay/epay/notify",
      return_url: "https://console.example.com/api/pay/epay/return",
      name: "购买套餐「专业版」月付",
      money: "19.90",
      sign_type: "MD5",
    });
    expect(epayVerify(p, "merchant-key-1")).toBe(true);
  });
});
