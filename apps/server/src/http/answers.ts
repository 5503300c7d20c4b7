import { type Endpoint, ErrorCode } from "@burrow/contract";
import fastJson from "fast-json-stringify";
import type { FastifyInstance, FastifyReply } from "fastify";
import { type ZodType, z } from "zod";
import { AppError } from "../shared/errors";

/*
 * Answers are serialised by their contract schema (docs/api.md "How answers are serialised"): the
 * envelope's `data` is written by fast-json-stringify from the endpoint's `answer`, so a field a
 * service returns that the contract does not declare is never sent. What fast-json-stringify
 * cannot write faithfully falls back, per endpoint, to JSON.stringify of the zod-parsed value.
 */

type JsonSchema = { [k: string]: unknown };

/** The envelope of a successful answer, as the serialiser writes it. */
export interface SuccessEnvelope {
  code: "SUCCESS";
  msg: string;
  data: unknown;
}

/** Keywords fast-json-stringify writes by (or ignores harmlessly: annotations, value limits). */
const SAFE_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "enum",
  "const",
  "nullable",
  "$ref",
  "$defs",
  "description",
  "title",
  "examples",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "format",
  "propertyNames",
]);

const ANNOTATIONS = new Set(["description", "title", "examples", "default"]);

/** Why a schema cannot be written by fast-json-stringify, or null when it can. */
function unfaithful(s: unknown, at: string): string | null {
  if (!s || typeof s !== "object") return null;
  if (Array.isArray(s)) {
    for (const [i, x] of s.entries()) {
      const why = unfaithful(x, `${at}/${i}`);
      if (why) return why;
    }
    return null;
  }
  for (const [k, v] of Object.entries(s)) {
    if (!SAFE_KEYWORDS.has(k)) return `${at}: ${k}`;
    // Record keys narrower than "any string" (an enum of keys) are not checked by the serialiser.
    if (k === "propertyNames" && JSON.stringify(v) !== '{"type":"string"}') return `${at}: propertyNames`;
    const why =
      k === "properties" || k === "$defs"
        ? unfaithful(Object.values(v as object), `${at}/${k}`)
        : k === "enum" || k === "const" || k === "default" || k === "examples"
          ? null
          : unfaithful(v, `${at}/${k}`);
    if (why) return why;
  }
  return null;
}

/**
 * Rewrites zod's JSON Schema for fast-json-stringify, keeping its meaning:
 * - `anyOf [X, null]` (zod's nullable) → X with `nullable: true`: written without a validator, and
 *   an undeclared field inside X is dropped, not a failed branch match;
 * - `const` → a one-value `enum`: fast-json-stringify writes a `const` whatever the value is,
 *   an `enum` it writes as the value (union branches are still told apart by it);
 * - `format` dropped: fast-json-stringify rewrites Date objects by it ("date" → YYYY-MM-DD), where
 *   JSON.stringify (and our ISO-string times) would not.
 */
function forSerialiser(s: unknown): unknown {
  if (!s || typeof s !== "object") return s;
  if (Array.isArray(s)) return s.map(forSerialiser);
  const src = s as JsonSchema;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === "format" || k === "$schema") continue;
    if (k === "const") out.enum = [v];
    else if (k === "enum" || k === "default" || k === "examples") out[k] = v;
    else if (k === "properties" || k === "$defs")
      out[k] = Object.fromEntries(Object.entries(v as JsonSchema).map(([p, ps]) => [p, forSerialiser(ps)]));
    else out[k] = forSerialiser(v);
  }
  const { anyOf, oneOf, ...rest } = out;
  const union = (anyOf ?? oneOf) as JsonSchema[] | undefined;
  const annotationsOnly = Object.keys(rest).every((k) => ANNOTATIONS.has(k));
  if (union?.length === 2 && annotationsOnly) {
    const other = union.filter((b) => !(b.type === "null" && Object.keys(b).length === 1));
    // Only a plain X: a union or reference inside would be matched before `nullable` is looked at.
    const x = other[0];
    if (other.length === 1 && !x.anyOf && !x.oneOf && !x.$ref && !Array.isArray(x.type))
      return { ...x, ...rest, nullable: true };
  }
  return out;
}

/**
 * The JSON Schema of the success envelope for `answer`, or why fast-json-stringify cannot write it
 * faithfully (a transform, a tuple, keys limited to an enum, …).
 */
export function envelopeSchema(answer: ZodType): { schema: JsonSchema } | { unfaithful: string } {
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(answer, { io: "output", unrepresentable: "throw" }) as JsonSchema;
  } catch (err) {
    return { unfaithful: (err as Error).message };
  }
  delete json.$schema;
  const why = unfaithful(json, "#");
  if (why) return { unfaithful: why };
  // $defs (recursive answers: the menu's children) stay at the root, where their $refs point.
  const { $defs, ...data } = forSerialiser(json) as JsonSchema;
  return {
    schema: {
      type: "object",
      properties: { code: { type: "string" }, msg: { type: "string" }, data },
      required: ["code", "msg", "data"],
      additionalProperties: false,
      ...($defs ? { $defs } : {}),
    },
  };
}

const serialisers = new WeakMap<ZodType, (e: SuccessEnvelope) => string>();

/**
 * The serialiser of `answer`'s envelope, compiled on first use and kept for the process (compiling
 * takes ~10 ms: every endpoint at start-up would cost seconds, and each test app again).
 */
export function answerSerialiser(answer: ZodType): (e: SuccessEnvelope) => string {
  let fn = serialisers.get(answer);
  if (fn) return fn;
  const built = envelopeSchema(answer);
  if ("schema" in built) fn = fastJson(built.schema);
  else
    fn = (e) => {
      const r = answer.safeParse(e.data);
      // Never sent as the client's fault (a ZodError would answer 400 naming a field): 500, logged.
      if (!r.success) throw new Error(`answer does not match its schema: ${r.error.message}`);
      return JSON.stringify({ ...e, data: r.data });
    };
  serialisers.set(answer, fn);
  return fn;
}

const JSON_TYPE = "application/json; charset=utf-8";

/** Sends `data` in the success envelope, written by the endpoint's answer schema where it has one. */
export function sendAnswer(reply: FastifyReply, ep: Pick<Endpoint, "answer">, data: unknown): FastifyReply {
  const envelope: SuccessEnvelope = { code: "SUCCESS", msg: "ok", data: data ?? null };
  if (ep.answer) {
    const write = answerSerialiser(ep.answer);
    // The reply keeps its serialiser: an error answered instead (a failed check, a serialiser that
    // refused the value) is another object, written as it is.
    // Fastify names the type itself only for its own serialiser; an error answered instead of the
    // envelope (a failed check, a value the serialiser refused) clears it and comes through here too.
    reply.type(JSON_TYPE);
    reply.serializer((p: unknown) => {
      if (p === envelope) return write(envelope);
      reply.type(JSON_TYPE);
      return JSON.stringify(p);
    });
  }
  return reply.send(envelope);
}

/** The contract endpoint a route serves (defineRoute puts it in the route's config). */
export function routeEndpoint(reply: FastifyReply): Endpoint | undefined {
  return (reply.request.routeOptions.config as { endpoint?: Endpoint }).endpoint;
}

/** What the answer check finds wrong, naming the call and the fields; null when it matches. */
function mismatch(ep: Endpoint, data: unknown, what: string): string | null {
  if (!ep.answer) return null;
  const r = ep.answer.safeParse(data);
  if (r.success) return null;
  const fields = r.error.issues.map((i) => `  ${i.path.join(".") || "(data)"}: ${i.message}`).join("\n");
  return `${ANSWER_CHECK}: ${ep.method} ${ep.url}: ${what} does not match its answer schema (contract answers/):\n${fields}`;
}

/** How an answer-check failure's message starts (the test harness throws on it). */
export const ANSWER_CHECK = "answer check";

/**
 * Test only (buildApp's `checkAnswers`, set by the test harness): every successful envelope answer
 * is parsed with its endpoint's `answer` schema, whoever made the call (t.api or app.inject) —
 * strict objects, so a field a service adds, drops or retypes fails the test that met it, with a
 * 500 whose message names the fields. Checked twice: the handler's value before serialising (a
 * wrong type the serialiser would coerce, a field it would drop) and the bytes sent (what the
 * serialiser wrote is still the answer).
 */
export function installAnswerCheck(app: FastifyInstance): void {
  const fail = (message: string) => new AppError(ErrorCode.Internal, 500, message);
  app.addHook("preSerialization", async (_req, reply, payload) => {
    const ep = routeEndpoint(reply);
    const env = payload as Partial<SuccessEnvelope> | null;
    if (ep && env?.code === "SUCCESS") {
      const why = mismatch(ep, env.data, "the handler's answer");
      if (why) throw fail(why);
    }
    return payload;
  });
  app.addHook("onSend", async (_req, reply, payload) => {
    const ep = routeEndpoint(reply);
    if (!ep?.answer || typeof payload !== "string" || reply.statusCode !== 200) return payload;
    if (!String(reply.getHeader("content-type") ?? "").startsWith("application/json")) return payload;
    const env = JSON.parse(payload) as Partial<SuccessEnvelope>;
    if (env.code === "SUCCESS") {
      const why = mismatch(ep, env.data, "the answer sent");
      if (why) throw fail(why);
    }
    return payload;
  });
}
