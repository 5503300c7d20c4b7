import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type CreateOrderResult, fenToYuan } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { balanceOf } from "../../../test/store-fixtures";
import { loadConfig } from "../../config";
import { checkNotify, epaySign, epayVerify, gatewayItemName, gatewayKeys, SANDBOX_KEY, SANDBOX_PID } from "./epay";

/**
 * Issue 19 §1: a customer who controls the Host header when creating a recharge got back a pay_url
 * whose signature also signed a different, "paid" parameter set (epay joins raw values with "&").
 * Each layer of the fix is tested on its own: links never come from a request, the notify accepts
 * exactly the protocol's keys, and values that could carry "&" or "=" are never signed.
 */

const EPAY_KEY = "merchant-key-for-tests";
const EPAY_PID = "2024";
const PUBLIC_URL = "https://console.example.com";
const INJECTED_HOST = "x&trade_no=1&trade_status=TRADE_SUCCESS&u=y";

/** The epay signature computed by hand (what a gateway, or the attacker's replay, relies on). */
const rawMd5 = (base: string, key: string) => createHash("md5").update(`${base}${key}`, "utf8").digest("hex");

async function notify(t: TestApp, params: Record<string, string>) {
  const res = await t.app.inject({ method: "GET", url: `/api/pay/epay/notify?${new URLSearchParams(params)}` });
  return { status: res.statusCode, text: res.body };
}

async function recharge(t: TestApp, token: string, headers: Record<string, string>, amount = 100_00) {
  const r = await t.app.inject({
    method: "POST",
    url: "/api/user/order",
    headers: { authorization: `Bearer ${token}`, ...headers },
    payload: { type: 1, amount, pay_method: 2, pay_type: "alipay" },
  });
  const body = r.json() as { code: string; data: CreateOrderResult };
  if (body.code !== "SUCCESS") throw new Error(JSON.stringify(body));
  return body.data;
}

/**
 * The forged notify of the report, derived from a pay_url byte for byte: the signed string of
 * the payment request, re-split so that the injected host's "&trade_status=TRADE_SUCCESS" becomes
 * real parameters while the signed bytes stay the same.
 */
function forgedFromPayUrl(payUrl: string): Record<string, string> {
  const p = Object.fromEntries(new URL(payUrl).searchParams);
  const notifyUrl = p.notify_url;
  const returnUrl = p.return_url;
  const cut = returnUrl.indexOf("&");
  const forged: Record<string, string> = {
    money: p.money,
    name: p.name,
    notify_url: notifyUrl,
    out_trade_no: p.out_trade_no,
    pid: p.pid,
    sign: p.sign,
    sign_type: "MD5",
  };
  if (cut < 0) {
    // No "&" made it into the link: the closest an attacker gets is adding the fields unsigned.
    return { ...forged, type: p.type, trade_no: "1", trade_status: "TRADE_SUCCESS" };
  }
  // return_url=http://x&trade_no=1&trade_status=TRADE_SUCCESS&u=y/api/pay/epay/return, then &type=…
  for (const part of `${returnUrl}&type=${p.type}`.slice(cut + 1).split(/&(?=trade_no=|trade_status=|u=)/)) {
    const eq = part.indexOf("=");
    forged[part.slice(0, eq)] = part.slice(eq + 1);
  }
  forged.return_url = returnUrl.slice(0, cut);
  return forged;
}

describe("configuration", () => {
  it("refuses a real gateway without PUBLIC_URL, naming it", () => {
    const env = { PAY_GATEWAY: "epay", EPAY_URL: "https://pay.example.com", EPAY_PID, EPAY_KEY };
    expect(() => loadConfig(env)).toThrowError(/PUBLIC_URL: required for the epay gateway/);
    expect(() => loadConfig({ ...env, PUBLIC_URL })).not.toThrow();
  });

  it("never falls back to the sandbox when a real gateway is configured, whatever NODE_ENV says", () => {
    const epay = { EPAY_URL: "https://pay.example.com", EPAY_PID, EPAY_KEY, PUBLIC_URL };
    // NODE_ENV left unset (development): the EPAY_* settings still mean the real gateway.
    expect(gatewayKeys(loadConfig(epay)).kind).toBe("epay");
    expect(() => loadConfig({ EPAY_KEY })).toThrowError(/EPAY_URL: required for the epay gateway/);
    // An https console with nothing configured is a deployment, not a sandbox, unless asked by name.
    expect(() => loadConfig({ PUBLIC_URL })).toThrowError(/PAY_GATEWAY/);
    expect(gatewayKeys(loadConfig({ PUBLIC_URL, PAY_GATEWAY: "sandbox" })).kind).toBe("sandbox");
    expect(gatewayKeys(loadConfig({ PUBLIC_URL: "http://localhost:8080" })).kind).toBe("sandbox");
  });

  it("refuses a PUBLIC_URL that could carry another parameter or a credential", () => {
    for (const bad of [
      "https://console.example.com/?a=1",
      "https://console.example.com/#x",
      "https://u:p@console.example.com",
      "https://console.example.com/a&b=1",
      "ftp://console.example.com",
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrowError(/PUBLIC_URL/);
    }
    expect(loadConfig({ NODE_ENV: "test", PUBLIC_URL: "https://console.example.com/burrow/" }).PUBLIC_URL).toBe(
      "https://console.example.com/burrow/",
    );
  });
});

describe("signing", () => {
  it("never signs, and never accepts, a key or value holding '&' or '='", () => {
    expect(() => epaySign({ pid: "1", notify_url: "http://x&trade_status=TRADE_SUCCESS" }, "k")).toThrow();
    expect(() => epaySign({ "a=b": "1" }, "k")).toThrow();
    const params = { pid: "1", money: "1.00", name: "a&b=c" };
    const sign = rawMd5("money=1.00&name=a&b=c&pid=1", "k");
    expect(epayVerify({ ...params, sign }, "k")).toBe(false);
  });

  it("turns '&', '=' and control characters of an item name into spaces", () => {
    expect(gatewayItemName("买一送一&满100=减10\n")).toBe("买一送一 满100 减10");
    expect(gatewayItemName("&=")).toBe("订单");
  });

  it("accepts exactly the gateway's notify fields", () => {
    const config = loadConfig({});
    const base = {
      pid: SANDBOX_PID,
      trade_no: "T1",
      out_trade_no: "O1",
      type: "alipay",
      name: "n",
      money: "1.00",
      trade_status: "TRADE_SUCCESS",
    };
    const signed = (p: Record<string, string>) => ({ ...p, sign: epaySign(p, SANDBOX_KEY), sign_type: "MD5" });
    expect(checkNotify(config, signed(base))).toMatchObject({ ok: true, amount: 100 });
    expect(checkNotify(config, signed({ ...base, param: "p" }))).toMatchObject({ ok: true });
    // Signed with the right key and still refused: the key is not one of the protocol's.
    expect(checkNotify(config, signed({ ...base, u: "y" }))).toMatchObject({ ok: false });
    const { trade_no: _, ...noTradeNo } = base;
    expect(checkNotify(config, signed(noTradeNo))).toMatchObject({ ok: false });
  });
});

describe("a real gateway with a crafted Host", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      PAY_GATEWAY: "epay",
      EPAY_URL: "https://pay.example.com",
      EPAY_PID,
      EPAY_KEY,
      PUBLIC_URL,
      TRUST_PROXY: "true",
    });
  });
  afterAll(() => t.close());

  it("builds every link from PUBLIC_URL whatever Host or X-Forwarded-Host say", async () => {
    const u = await t.register();
    for (const headers of <Record<string, string>[]>[
      { host: INJECTED_HOST },
      { "x-forwarded-host": INJECTED_HOST, "x-forwarded-proto": "http" },
    ]) {
      const order = await recharge(t, u.token, headers);
      const p = Object.fromEntries(new URL(order.pay_url ?? "").searchParams);
      expect(p.notify_url).toBe(`${PUBLIC_URL}/api/pay/epay/notify`);
      expect(p.return_url).toBe(`${PUBLIC_URL}/api/pay/epay/return`);
      expect(epayVerify(p, EPAY_KEY)).toBe(true);
    }
  });

  it("credits nothing for the forged notify of the report, through /notify or /return", async () => {
    const u = await t.register();
    const order = await recharge(t, u.token, { host: INJECTED_HOST });
    const forged = forgedFromPayUrl(order.pay_url ?? "");
    expect(await notify(t, forged)).toEqual({ status: 400, text: "fail" });
    await t.app.inject({ method: "GET", url: `/api/pay/epay/return?${new URLSearchParams(forged)}` });
    expect(await balanceOf(t, u.uid)).toBe(0);
    const row = await t.db
      .selectFrom("orders")
      .select(["status", "paid_at"])
      .where("trade_id", "=", order.trade_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 2, paid_at: null });
  });

  it("refuses a notify whose extra key is covered by a valid signature, or whose key is repeated", async () => {
    const u = await t.register();
    const order = await recharge(t, u.token, {}, 2500);
    const fields = {
      pid: EPAY_PID,
      trade_no: "GW1",
      out_trade_no: order.trade_id,
      type: "alipay",
      name: "x",
      money: fenToYuan(2500),
      trade_status: "TRADE_SUCCESS",
    };
    const withExtra = { ...fields, u: "y" };
    expect(await notify(t, { ...withExtra, sign: epaySign(withExtra, EPAY_KEY), sign_type: "MD5" })).toEqual({
      status: 400,
      text: "fail",
    });
    const good = { ...fields, sign: epaySign(fields, EPAY_KEY), sign_type: "MD5" };
    const repeated = `${new URLSearchParams(good)}&trade_status=TRADE_SUCCESS`;
    const r = await t.app.inject({ method: "GET", url: `/api/pay/epay/notify?${repeated}` });
    expect(r.body).toBe("fail");
    expect(await balanceOf(t, u.uid)).toBe(0);
    // The genuine notify still credits, exactly once.
    expect(await notify(t, good)).toEqual({ status: 200, text: "success" });
    expect(await notify(t, good)).toEqual({ status: 200, text: "success" });
    expect(await balanceOf(t, u.uid)).toBe(2500);
  });
});

describe("the sandbox gateway", () => {
  let t: TestApp;
  let hits = 0;
  const trap = http.createServer((_req, res) => {
    hits++;
    res.end("success");
  });
  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    trap.close();
    await t.close();
  });

  it("settles in-process and never fetches or redirects to a URL taken from the request", async () => {
    const u = await t.register();
    const order = await recharge(t, u.token, { host: INJECTED_HOST }, 1234);
    const payUrl = order.pay_url ?? "";
    // No PUBLIC_URL in development: the links are site-relative, never the request's host.
    expect(payUrl.startsWith("/api/pay/sandbox/submit.php?")).toBe(true);
    const p = Object.fromEntries(new URL(payUrl, "http://local").searchParams);
    expect(p.notify_url).toBe("/api/pay/epay/notify");

    // A request re-signed with the (public) sandbox key that points notify_url and return_url elsewhere.
    const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/steal`;
    const { sign: _s, sign_type: _t, ...fields } = p;
    const evil = { ...fields, notify_url: trapUrl, return_url: trapUrl };
    const signed = { ...evil, sign: epaySign(evil, SANDBOX_KEY), sign_type: "MD5", action: "pay" };
    const res = await t.app.inject({
      method: "POST",
      url: "/api/pay/sandbox/pay",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(signed).toString(),
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^\/api\/pay\/epay\/return\?/);
    expect(hits).toBe(0);
    expect(await balanceOf(t, u.uid)).toBe(1234);
  });
});
