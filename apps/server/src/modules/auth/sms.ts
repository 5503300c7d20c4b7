import { createHash, timingSafeEqual } from "node:crypto";
import type { Config } from "../../config";
import type { AppContext } from "../../context";
import { invalid, rateLimited } from "../../shared/errors";
import { randomDigits } from "../../shared/ids";
import { clientKey } from "../../shared/rate-limit";
import { nowIso } from "../../shared/time";

/** Sends one verification code. Drivers: console (logs one line) and a cloud-SMS HTTP API. */
export interface SmsDriver {
  send(phone: string, code: string, scene: string): Promise<void>;
}

/** Writes `[sms] to=<phone> code=<code>` to stdout: the development default (DESIGN.md §10). */
export const consoleSms = (write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): SmsDriver => ({
  async send(phone, code) {
    write(`[sms] to=${phone} code=${code}`);
  },
});

/**
 * Generic cloud-SMS HTTP driver: POST JSON {phone, code, scene} with a Bearer token; any 2xx
 * answer counts as sent. Cloud SMS vendors' gateways (or a small relay in front of one) take this.
 */
export const httpSms = (url: string, token: string): SmsDriver => ({
  async send(phone, code, scene) {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ phone, code, scene }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`SMS gateway answered HTTP ${res.status}`);
  },
});

export function createSmsDriver(config: Config): SmsDriver {
  return config.SMS_DRIVER === "http" && config.SMS_HTTP_URL
    ? httpSms(config.SMS_HTTP_URL, config.SMS_HTTP_TOKEN)
    : consoleSms();
}

const CODE_TTL_MS = 5 * 60 * 1000;
const MAX_ATTEMPTS = 5;
const hash = (phone: string, code: string) => createHash("sha256").update(`${phone}:${code}`).digest("hex");

/** Limits: one code a minute per phone and scene, ten a day per phone, SMS_IP_HOURLY_LIMIT (30) an hour per IP. */
export async function sendCode(ctx: AppContext, phone: string, scene: string, ip: string): Promise<void> {
  // The sender's address first: a request it refuses must not spend the phone's own quota.
  for (const [key, limit, window] of [
    [`sms:ip:${clientKey(ip)}`, ctx.config.SMS_IP_HOURLY_LIMIT, 3600],
    [`sms:phone1m:${phone}:${scene}`, 1, 60],
    [`sms:phoneday:${phone}`, 10, 86_400],
  ] as const) {
    const r = await ctx.limiter.hit(key, limit, window);
    if (!r.allowed) throw rateLimited(r.retryAfterSec);
  }
  const code = randomDigits(6);
  const now = Date.now();
  await ctx.db
    .insertInto("sms_codes")
    .values({
      phone,
      scene,
      code_hash: hash(phone, code),
      ip,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + CODE_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  await ctx.sms.send(phone, code, scene);
}

/**
 * Consumes a code: the newest unused, unexpired code for (phone, scene) must match. Single use;
 * after five wrong tries the code is spent. The try is spent by a conditional update *before*
 * the comparison, so concurrent guesses cannot all read the same "attempts < 5": at most five
 * are ever compared, on either database.
 */
export async function consumeCode(ctx: AppContext, phone: string, scene: string, code: string): Promise<void> {
  const row = await ctx.db
    .selectFrom("sms_codes")
    .select(["id", "code_hash"])
    .where("phone", "=", phone)
    .where("scene", "=", scene)
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso())
    .orderBy("id", "desc")
    .executeTakeFirst();
  const spent = row
    ? await ctx.db
        .updateTable("sms_codes")
        .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
        .where("id", "=", row.id)
        .where("attempts", "<", MAX_ATTEMPTS)
        .where("used_at", "is", null)
        .executeTakeFirst()
    : undefined;
  if (!row || Number(spent?.numUpdatedRows ?? 0) !== 1) throw invalid("code", "验证码无效或已过期，请重新获取");
  const ok = timingSafeEqual(Buffer.from(row.code_hash), Buffer.from(hash(phone, code)));
  if (!ok) throw invalid("code", "验证码错误");
  // The conditional update makes the code single-use even under concurrent requests.
  const res = await ctx.db
    .updateTable("sms_codes")
    .set({ used_at: nowIso() })
    .where("id", "=", row.id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw invalid("code", "验证码无效或已过期，请重新获取");
}
