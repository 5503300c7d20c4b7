import pg from "pg";
import pino from "pino";
import { buildApp } from "../apps/server/src/app";
import { issueSession } from "../apps/server/src/modules/auth/sessions";
import { scaleConfig, seedScale } from "./scale-seed";
let n = 0;
const q = pg.Client.prototype.query;
pg.Client.prototype.query = function (...a: unknown[]) { n++; return (q as Function).apply(this, a); } as typeof q;
await seedScale(1);
const { app, ctx } = await buildApp(scaleConfig(1), { logger: pino({ level: "silent" }) });
const op = (await issueSession(ctx, 1, { ip: "127.0.0.1", userAgent: "b" })).token;
const cu = (await issueSession(ctx, 2, { ip: "127.0.0.1", userAgent: "b" })).token;
for (const [who, p] of (process.env.PATHS ?? "").split(",").map((s) => s.split("@"))) {
  for (let i = 0; i < 3; i++) {
    n = 0;
    const r = await app.inject({ method: "GET", url: p, headers: { authorization: `Bearer ${who === "c" ? cu : op}` } });
    if (i === 2) console.log(p, r.statusCode, "bytes", r.payload.length, "pg queries", n);
  }
}
await app.close();
