import { type Endpoint, Endpoints, TunnelsApi, UsersApi } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { checkAnswer, endpointOf } from "./answer-check";

describe("answers checked against the contract's schemas in every API test", () => {
  it("finds the endpoint a call reached, the most specific route first", () => {
    expect(endpointOf("GET", "/user/tun/config?tun_id=3")).toBe(TunnelsApi.getUserTunConfig);
    expect(endpointOf("GET", "/user/tun/12")).toBe(TunnelsApi.getUserTunTunid);
    expect(endpointOf("get", "/user/userInfo")).toBe(UsersApi.getUserUserInfo);
    expect(endpointOf("GET", "/no/such/route")).toBeUndefined();
  });

  it("refuses an answer with a field missing, retyped or added, naming it; leaves errors alone", () => {
    const good = { uid: 1 };
    expect(() => checkAnswer("GET", "/user/userInfo", { code: "SUCCESS", data: good })).toThrow(/nickname/);
    expect(() => checkAnswer("GET", "/user/userInfo", { code: 10000, msg: "x", data: null })).not.toThrow();
    expect(() => checkAnswer("GET", "/no/such/route", { code: "SUCCESS", data: 1 })).not.toThrow();
  });

  it("every endpoint that answers the envelope has an answer schema (the OpenAPI document describes each data)", () => {
    const missing = Object.values(Endpoints)
      .flatMap((domain) => Object.values(domain) as Endpoint[])
      .filter((ep) => (!ep.raw || ep.raw === "multipart") && !ep.answer)
      .map((ep) => `${ep.method} ${ep.url}`);
    expect(missing).toEqual([]);
  });
});
