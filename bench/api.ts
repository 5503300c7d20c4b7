// API throughput and query timings on seeded data, as ratios against baselines measured in the
// same run: an authenticated call and a big page (100 rows) vs a bare Fastify route, and filtered
// admin queries vs a primary-key lookup on the same database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UsermgrApi } from "@burrow/contract";
import Fastify from "fastify";
import pino from "pino";
import { buildApp } from "../apps/server/src/app";
import { loadConfig } from "../apps/server/src/config";
import { answerSerialiser } from "../apps/server/src/http/answers";
import { issueSession } from "../apps/server/src/modules/auth/sessions";
import { listUsers } from "../apps/server/src/modules/usermgr/usermgr.service";
import { loadFromChild, report, timeIt } from "./lib";

const USERS = Number(process.env.BENCH_USERS ?? 20_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "burrow-bench-"));
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "silent", ADMIN_PASSWORD: "bench-pass-123", NODE_ENV: "test" });
const out = process.stdout.write.bind(process.stdout);
process.stdout.write = (() => true) as typeof process.stdout.write;
const { app, ctx } = await buildApp(config, { logger: pino({ level: "silent" }) });
process.stdout.write = out;

// Seed users in batches (bulk insert; the password hash is shared, it is never checked here).
const now = Date.now();
for (let i = 0; i < USERS; i += 500) {
  const rows = Array.from({ length: Math.min(500, USERS - i) }, (_, k) => {
    const n = i + k;
    return {
      phone: `150${String(n).padStart(8, "0")}`,
      password_hash: "x",
      role: 1,
      status: n % 50 === 0 ? -1 : 1,
      ban_reason: null,
      nickname: `u${n}`,
      frp_token: `tok${n}`,
      invite_code: `INV${n}`,
      referrer_uid: null,
      real_name: null,
      id_number_masked: null,
      created_at: new Date(now - n * 60_000).toISOString(),
      last_login_at: null,
    };
  });
  await ctx.db.insertInto("users").values(rows).execute();
}
const { token } = await issueSession(ctx, 1, { ip: "127.0.0.1", userAgent: "bench" });
await app.listen({ host: "127.0.0.1", port: 0 });
const apiUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const bare = Fastify();
bare.get("/ping", async () => ({ code: "SUCCESS", msg: "ok", data: null }));
await bare.listen({ host: "127.0.0.1", port: 0 });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

// The load comes from a child process, so that neither figure includes the load generator's CPU.
const baseline = await loadFromChild({ url: `${bareUrl}/ping` });
const userInfo = await loadFromChild({
  url: `${apiUrl}/api/user/userInfo`,
  headers: { authorization: `Bearer ${token}` },
});

// A big page (100 customers): the answer written by its contract schema (http/answers.ts) vs the
// bare route; and that page's envelope serialised alone, by the schema and by JSON.stringify.
const userPage = await loadFromChild({
  url: `${apiUrl}/api/super/user/list?page=1&size=100`,
  headers: { authorization: `Bearer ${token}` },
});
const page = await listUsers(ctx, { page: 1, size: 100 } as Parameters<typeof listUsers>[1]);
const envelope = { code: "SUCCESS" as const, msg: "ok", data: page };
const pageAnswer = UsermgrApi.getSuperUserList.answer;
if (!pageAnswer) throw new Error("GET /super/user/list has no answer schema");
const bySchema = answerSerialiser(pageAnswer);
const serialiseUs = (write: () => string) => {
  for (let i = 0; i < 200; i++) write(); // warm-up (JIT, the schema's first compile)
  const t0 = performance.now();
  for (let i = 0; i < 2000; i++) write();
  return Number((((performance.now() - t0) / 2000) * 1000).toFixed(1));
};
const pageSerialise = {
  schema_us: serialiseUs(() => bySchema(envelope)),
  json_stringify_us: serialiseUs(() => JSON.stringify(envelope)),
};

const pk = await timeIt(() => ctx.db.selectFrom("users").selectAll().where("uid", "=", 1234).execute());
const q = (query: Record<string, unknown>) => () =>
  listUsers(ctx, { page: 1, size: 20, ...query } as Parameters<typeof listUsers>[1]);
const timings = {
  first_page_ms: await timeIt(q({})),
  by_phone_ms: await timeIt(q({ phone: "1500001" })),
  banned_ms: await timeIt(q({ status: -1 })),
  deep_page_ms: await timeIt(q({ page: 500 })),
};

report("api", {
  users: USERS,
  baseline_bare_route: baseline,
  user_info: userInfo,
  user_info_ratio_to_bare: Number((userInfo.rps / baseline.rps).toFixed(3)),
  user_info_cpu_ratio_to_bare: Number((baseline.cpu_us_per_req / userInfo.cpu_us_per_req).toFixed(3)),
  user_page_100: userPage,
  user_page_100_ratio_to_bare: Number((userPage.rps / baseline.rps).toFixed(3)),
  user_page_100_cpu_ratio_to_bare: Number((baseline.cpu_us_per_req / userPage.cpu_us_per_req).toFixed(3)),
  user_page_100_serialise: {
    ...pageSerialise,
    json_stringify_over_schema: Number((pageSerialise.json_stringify_us / pageSerialise.schema_us).toFixed(2)),
  },
  pk_lookup_ms: pk,
  user_list: timings,
  user_list_ratio_to_pk: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Number((v / pk).toFixed(1))])),
});

await app.close();
await bare.close();
fs.rmSync(dir, { recursive: true, force: true });
