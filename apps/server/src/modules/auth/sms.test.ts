import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleSms, httpSms } from "./sms";

let server: http.Server;
let url: string;
let status = 200;
const received: { auth?: string; body: unknown }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(data) });
      res.statusCode = status;
      res.end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("SMS drivers", () => {
  it("console driver writes one [sms] line", async () => {
    const lines: string[] = [];
    await consoleSms((l) => lines.push(l)).send("13912345678", "123456", "register");
    expect(lines).toEqual(["[sms] to=13912345678 code=123456"]);
  });

  it("HTTP driver posts phone, code and scene with the Bearer token", async () => {
    await httpSms(url, "secret-token").send("13912345678", "654321", "reset");
    expect(received.at(-1)).toEqual({
      auth: "Bearer secret-token",
      body: { phone: "13912345678", code: "654321", scene: "reset" },
    });
  });

  it("HTTP driver fails when the gateway refuses", async () => {
    status = 500;
    await expect(httpSms(url, "t").send("13912345678", "000000", "login")).rejects.toThrow(/HTTP 500/);
    status = 200;
  });
});
