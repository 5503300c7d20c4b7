import { type Endpoint, Endpoints, MenuApi, OidcApi, OverviewApi, Role, UsermgrApi, UsersApi } from "@burrow/contract";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AppContext } from "../src/context";
import { ANSWER_CHECK, answerSerialiser, envelopeSchema, installAnswerCheck } from "../src/http/answers";
import { registerErrorHandler } from "../src/http/error-handler";
import { defineRoute } from "../src/http/route";

const allEndpoints = () => Object.values(Endpoints).flatMap((domain) => Object.values(domain) as Endpoint[]);

/** What the serialiser sends of `data` under `ep`'s answer schema, parsed back. */
const sent = (ep: Endpoint, data: unknown) =>
  JSON.parse(answerSerialiser(ep.answer as z.ZodType)({ code: "SUCCESS", msg: "ok", data })).data;

const user = {
  uid: 7,
  role: 1,
  status: 1,
  nickname: "小明",
  balance: 1234,
  invite_code: "ABCD",
  frp_token: "tok",
  verify_status: 0,
  real_name: null,
  created_at: "2026-11-28T01:02:03.000Z",
  personal_info: { avatar: "", phone_number: "138****0000" },
  phone_bound: true,
  has_password: false,
};

const adminRow = (uid: number) => ({
  uid,
  phone: `1380000${String(uid).padStart(4, "0")}`,
  nickname: `用户 "${uid}" \\ \u2028`,
  role: 1,
  status: uid % 2 ? 1 : -1,
  balance: uid * 100,
  verify_status: 1,
  ban_reason: uid % 2 ? null : "刷流量",
  created_at: "2026-11-28T01:02:03.000Z",
  last_login_at: uid % 3 ? null : "2026-11-28T02:00:00.000Z",
});

describe("answers serialised by their contract schema (http/answers.ts)", () => {
  it("every endpoint that answers the envelope has an answer schema (the OpenAPI document describes each data)", () => {
    const missing = allEndpoints()
      .filter((ep) => (!ep.raw || ep.raw === "multipart") && !ep.answer)
      .map((ep) => `${ep.method} ${ep.url}`);
    expect(missing).toEqual([]);
  });

  it("every answer schema compiles and is written by fast-json-stringify (none falls back today)", () => {
    const answered = allEndpoints().filter((ep) => ep.answer);
    // compiled here, once each, rather than on some endpoint's first call in production
    for (const ep of answered) expect(answerSerialiser(ep.answer as z.ZodType)).toBeTypeOf("function");
    const fallback = answered
      .map((ep) => ({ ep, built: envelopeSchema(ep.answer as z.ZodType) }))
      .filter(({ built }) => "unfaithful" in built)
      .map(({ ep, built }) => `${ep.method} ${ep.url}: ${(built as { unfaithful: string }).unfaithful}`);
    expect(fallback).toEqual([]);
  });

  it("drops a field the contract does not declare, at any depth, and sends the declared ones as they are", () => {
    const out = sent(UsersApi.getUserUserInfo, {
      ...user,
      password_hash: "$argon2id$…",
      personal_info: { ...user.personal_info, phone: "13800000000" },
    });
    expect(out).toEqual(user);
  });

  it("a big page (1000 rows, nullable fields, escapes) is sent exactly as JSON.stringify would", () => {
    const page = { list: Array.from({ length: 1000 }, (_, i) => adminRow(i + 1)), total: 5000, page: 1, size: 1000 };
    const s = answerSerialiser(UsermgrApi.getSuperUserList.answer as z.ZodType)({
      code: "SUCCESS",
      msg: "ok",
      data: page,
    });
    expect(s).toBe(JSON.stringify({ code: "SUCCESS", msg: "ok", data: page }));
  });

  it("unions, literal unions, records, recursive trees and nulls keep their meaning", () => {
    // a union of objects: each value keeps its own branch; an unknown field is not sent
    const fix = (f: unknown) => ({ key: "sms", label: "短信", done: false, detail: "", fix: f });
    const setup = { items: [fix({ page: "/settings" }), fix({ env: ["SMS_KEY"], doc: "deploy.md" })], done: false };
    const checklist = { ...setup, dismissed: false, show: true };
    expect(sent(OverviewApi.getSuperSetup, checklist)).toEqual(checklist);
    // a discriminated union: the branch of each kind, by its literal
    const unlinked = { kind: "unlinked", ticket: "t", provider: "GitHub", expires_at: "2026-11-28T00:00:00.000Z" };
    expect(sent(OidcApi.postAuthOidcCallback, unlinked)).toEqual(unlinked);
    expect(sent(OidcApi.postAuthOidcCallback, { kind: "bound", provider: "GitHub" })).toEqual({
      kind: "bound",
      provider: "GitHub",
    });
    // a recursive tree (zod $defs), children optional
    const menu = [
      {
        name: "隧道",
        id: "tun",
        path: "/tun",
        icon: "list",
        children: [{ name: "列表", id: "l", path: "/l", icon: "list" }],
      },
    ];
    expect(sent(MenuApi.getUserRolemenu, menu)).toEqual(menu);
    // records (every key, values by the value schema), literal unions, nullable objects
    const shapes = z.strictObject({
      counts: z.record(z.string(), z.number().int()),
      data_type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      node: z.strictObject({ host: z.string() }).nullable(),
      at: z.string().nullable().describe("ISO-8601 UTC"),
    });
    const write = (data: unknown) => JSON.parse(answerSerialiser(shapes)({ code: "SUCCESS", msg: "ok", data })).data;
    const value = { counts: { tcp: 2, "x-y": 0 }, data_type: 2, node: { host: "a" }, at: null };
    expect(write(value)).toEqual(value);
    expect(write({ ...value, node: null, at: "2026-11-28T00:00:00.000Z" })).toEqual({
      ...value,
      node: null,
      at: "2026-11-28T00:00:00.000Z",
    });
    // an undeclared field inside a nullable object is dropped like anywhere else
    expect(write({ ...value, node: { host: "a", secret: "s" } })).toEqual(value);
    // a literal outside the union is refused, never replaced by one of the literals
    expect(() => write({ ...value, data_type: 4 })).toThrow();
  });

  it("never writes a value the schema cannot hold in its place: a missing field or an unknown branch throws", () => {
    const { nickname: _, ...noName } = user;
    expect(() => sent(UsersApi.getUserUserInfo, noName)).toThrow(/nickname/);
    expect(() => sent(OidcApi.postAuthOidcCallback, { kind: "other", provider: "x" })).toThrow();
  });

  it("falls back to JSON.stringify of the zod-parsed value where fast-json-stringify cannot be faithful", () => {
    const answer = z.strictObject({ at: z.string().transform((s) => s.toUpperCase()) });
    expect(envelopeSchema(answer)).toHaveProperty("unfaithful");
    const write = answerSerialiser(answer);
    expect(write({ code: "SUCCESS", msg: "ok", data: { at: "x" } })).toBe(
      '{"code":"SUCCESS","msg":"ok","data":{"at":"X"}}',
    );
    // a mismatch is the server's fault: a plain error (500), never a ZodError (400 naming a field)
    expect(() => write({ code: "SUCCESS", msg: "ok", data: { at: 1 } })).toThrow(/answer does not match/);
    expect(() => write({ code: "SUCCESS", msg: "ok", data: { at: 1 } })).not.toThrow(z.ZodError);
  });
});

describe("through a route (defineRoute on a bare server, a real endpoint, app.inject)", () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  /** A server serving UsersApi.getUserUserInfo with `answer`, for any caller; with or without the test-time check. */
  async function serve(answer: unknown, check: boolean, handler?: (c: { reply: FastifyReply }) => FastifyReply) {
    const app = Fastify();
    apps.push(app);
    registerErrorHandler(app);
    if (check) installAnswerCheck(app);
    const ctx = {
      auth: {
        authenticate: async () => ({ uid: 7, role: Role.Customer, kind: "test", credentialId: "1", scopes: "all" }),
      },
    } as unknown as AppContext;
    defineRoute(app, ctx, UsersApi.getUserUserInfo, handler ?? (() => answer as typeof user));
    await app.ready();
    const res = await app.inject({ method: "GET", url: "/user/userInfo", headers: { authorization: "Bearer x" } });
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    return { status: res.statusCode, body: res.json() };
  }

  it("a field the service returns that the contract does not declare is not sent", async () => {
    const r = await serve({ ...user, password_hash: "$argon2id$…" }, false);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: "SUCCESS", msg: "ok", data: user });
  });

  it("an answer the serialiser cannot write (a field missing) is a 500 envelope, not a broken body", async () => {
    const { nickname: _, ...noName } = user;
    const r = await serve(noName, false);
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ code: 5000, data: null });
  });

  it("the test-time check fails a call whose answer has a field added, missing or retyped, naming it", async () => {
    const added = await serve({ ...user, password_hash: "x" }, true);
    expect(added.status).toBe(500);
    expect(added.body.msg).toMatch(new RegExp(`^${ANSWER_CHECK}: GET /user/userInfo: .*\\n.*password_hash`));
    const { nickname: _, ...noName } = user;
    expect((await serve(noName, true)).body.msg).toMatch(/nickname/);
    // a number where the schema says string: the serialiser would coerce it, the check does not
    expect((await serve({ ...user, invite_code: 1234 }, true)).body.msg).toMatch(/invite_code/);
    expect(await serve(user, true)).toEqual({ status: 200, body: { code: "SUCCESS", msg: "ok", data: user } });
  });

  it("the test-time check also reads the bytes sent (a handler writing its own JSON passes no serialiser)", async () => {
    const own = (data: unknown) => (c: { reply: FastifyReply }) =>
      c.reply.type("application/json").send(JSON.stringify({ code: "SUCCESS", msg: "ok", data }));
    expect((await serve(null, true, own({ uid: 7 }))).body.msg).toMatch(/the answer sent [\s\S]*nickname/);
    expect((await serve(null, true, own(user))).status).toBe(200);
  });
});
