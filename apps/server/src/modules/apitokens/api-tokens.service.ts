import { createHash, randomBytes } from "node:crypto";
import {
  API_TOKEN_PREFIX,
  type ApiTokenScope,
  ApiTokenScopes,
  type ApiTokenView,
  type CreateApiTokenBody,
  type CreatedApiToken,
  MAX_LIVE_API_TOKENS,
} from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { DAY_MS, nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import type { ApiTokenTable } from "./apitokens.table";

/** Revoked and expired tokens stay listed (with their last use) up to this many rows in all. */
const LIST_LIMIT = 100;

/**
 * `brw_<16 hex id>_<43 base64url>`: the id (64 random bits) is the row's key and not secret; the
 * secret is 256 random bits, so a fast hash is enough (nothing to brute-force; docs/security.md).
 */
const TOKEN_SHAPE = new RegExp(`^${API_TOKEN_PREFIX}([0-9a-f]{16})_([A-Za-z0-9_-]{43})$`);

/** The id and secret of a presented token, or null when it is not shaped like one. */
export function parseApiToken(token: string): { id: string; secret: string } | null {
  const m = TOKEN_SHAPE.exec(token);
  return m ? { id: m[1], secret: m[2] } : null;
}

/** The stored form of a secret: SHA-256, hex. */
export const hashSecret = (secret: string): Buffer => createHash("sha256").update(secret).digest();

/** A token's scopes as stored ("a,b") → the known ones. */
export const scopesOf = (stored: string): ApiTokenScope[] =>
  stored.split(",").filter((s): s is ApiTokenScope => (ApiTokenScopes as readonly string[]).includes(s));

/** Whether a token row still authenticates at `nowMs`. */
export const isLive = (row: Pick<ApiTokenTable, "revoked_at" | "expires_at">, nowMs = Date.now()): boolean =>
  row.revoked_at === null && (row.expires_at === null || Date.parse(row.expires_at) > nowMs);

function present(row: ApiTokenTable): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    scopes: scopesOf(row.scopes),
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    last_used_ip: row.last_used_ip,
    revoked_at: row.revoked_at,
  };
}

/** The customer's tokens, newest first. */
export async function listApiTokens(db: Kysely<DB>, uid: number): Promise<ApiTokenView[]> {
  const rows = await db
    .selectFrom("api_tokens")
    .selectAll()
    .where("uid", "=", uid)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(LIST_LIMIT)
    .execute();
  return rows.map(present);
}

/**
 * Creates a token: at most MAX_LIVE_API_TOKENS live ones per customer, counted under the
 * customer's lock so that concurrent creations cannot pass the count together. The answer is the
 * only time the secret is seen.
 */
export async function createApiToken(ctx: AppContext, uid: number, body: CreateApiTokenBody): Promise<CreatedApiToken> {
  const id = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const now = Date.now();
  const row: ApiTokenTable = {
    id,
    uid,
    name: body.name,
    scopes: ApiTokenScopes.filter((s) => body.scopes.includes(s)).join(","),
    secret_hash: hashSecret(secret).toString("hex"),
    created_at: new Date(now).toISOString(),
    expires_at: body.expires_days ? new Date(now + body.expires_days * DAY_MS).toISOString() : null,
    last_used_at: null,
    last_used_ip: null,
    revoked_at: null,
  };
  await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    const nowIsoStr = new Date(now).toISOString();
    const live = await trx
      .selectFrom("api_tokens")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("uid", "=", uid)
      .where("revoked_at", "is", null)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", nowIsoStr)]))
      .executeTakeFirstOrThrow();
    if (Number(live.n) >= MAX_LIVE_API_TOKENS)
      throw refused(`最多同时持有 ${MAX_LIVE_API_TOKENS} 个有效的 API 令牌，请先撤销不用的令牌`);
    await trx.insertInto("api_tokens").values(row).execute();
  });
  return { ...present(row), token: `${API_TOKEN_PREFIX}${id}_${secret}` };
}

/**
 * Revokes every live token of the customer, in the caller's transaction: a new password (reset by
 * SMS, changed, or set by an operator) ends every credential the old one could have minted, API
 * tokens as well as sessions, so a token planted during a compromise does not outlive its repair
 * (it could read the new frp secret). A ban only suspends them (the credential checks the status).
 */
export async function revokeAllApiTokens(db: Kysely<DB>, uid: number): Promise<void> {
  await db
    .updateTable("api_tokens")
    .set({ revoked_at: nowIso() })
    .where("uid", "=", uid)
    .where("revoked_at", "is", null)
    .execute();
}

/**
 * Revokes one of the customer's tokens (again: no change). The credential reads the row on every
 * call, so the next call with it is refused in every process.
 */
export async function revokeApiToken(db: Kysely<DB>, uid: number, id: string): Promise<ApiTokenView> {
  await db
    .updateTable("api_tokens")
    .set({ revoked_at: nowIso() })
    .where("id", "=", id)
    .where("uid", "=", uid)
    .where("revoked_at", "is", null)
    .execute();
  const row = await db
    .selectFrom("api_tokens")
    .selectAll()
    .where("id", "=", id)
    .where("uid", "=", uid)
    .executeTakeFirst();
  if (!row) throw notFound("API 令牌");
  return present(row);
}

/** The row of a token id (the credential's one indexed read). */
export const findApiToken = (db: Kysely<DB>, id: string): Promise<ApiTokenTable | undefined> =>
  db.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirst();

/** Records a use, at most once a minute per token (the list shows it to the minute). */
export async function touchApiToken(db: Kysely<DB>, row: ApiTokenTable, ip: string, nowMs = Date.now()): Promise<void> {
  if (row.last_used_at !== null && nowMs - Date.parse(row.last_used_at) < 60_000 && row.last_used_ip === ip) return;
  await db
    .updateTable("api_tokens")
    .set({ last_used_at: new Date(nowMs).toISOString(), last_used_ip: ip })
    .where("id", "=", row.id)
    .execute();
}
