/** Holds and claims of an ID number across accounts: who may take a number, and who was refused it. */
import { type ContestedClaim, ProcessStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import type { DB } from "../../db/schema";
import { localDuplicated } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { nowIso } from "../../shared/time";
import { type Tx, transact } from "../../shared/tx";
import { NO_EVIDENCE } from "./evidence";
import { findRow } from "./verify.repository";
import type { VerificationTable } from "./verify.table";

export const DUPLICATE = "该身份证号码已用于其他账号的实名认证，一个身份证号码只能认证一个账号";

/** A redirect hold on a number starts at most once a day per account (then runs its 30 minutes). */
const HOLD_RENEWAL_MS = 86400_000;
/** Refused accounts remembered on a claim (the newest). */
const MAX_REFUSED_CLAIMS = 20;

/**
 * The columns that end a request: no hold, no claim, no name, no pending provider request, no
 * evidence. A request turning done puts back its claim and name hash (`done(row)`).
 */
export const RELEASED = {
  id_hash: null,
  claim_hash: null,
  name_hash: null,
  held_until: null,
  request_id: null,
  refused_claims: null,
  ...NO_EVIDENCE,
} as const;

/**
 * What a request keeps once done: its number as the hold, the hash of its full name, and the
 * accounts refused its number (still a signal for operators).
 */
export const done = (row: Pick<VerificationTable, "claim_hash" | "name_hash" | "refused_claims">) => ({
  id_hash: row.claim_hash,
  claim_hash: row.claim_hash,
  name_hash: row.name_hash,
  refused_claims: row.refused_claims,
});

interface RefusedClaim {
  uid: number;
  at: string;
  provider: string;
}
export const refusedOf = (row: Pick<VerificationTable, "refused_claims"> | undefined): RefusedClaim[] =>
  row?.refused_claims ? (JSON.parse(row.refused_claims) as RefusedClaim[]) : [];

/** This account's redirect hold starts of the last day, by number hash (older ones dropped). */
export function recentHoldStarts(row: Pick<VerificationTable, "hold_starts"> | undefined, now: string) {
  const all = row?.hold_starts ? (JSON.parse(row.hold_starts) as Record<string, string>) : {};
  return Object.fromEntries(
    Object.entries(all).filter(([, at]) => Date.parse(now) - Date.parse(at) < HOLD_RENEWAL_MS),
  ) as Record<string, string>;
}

/**
 * Whether another account holds the number: refused (409) while it is verified there or its
 * redirect request is within its hold; a hold whose time is up is released on the way, so a
 * request nobody finishes never locks the number's owner out. `onRefused` is told the holder
 * before the refusal is thrown (the caller records it once the transaction is rolled back).
 */
export async function refuseHeldElsewhere(
  trx: Tx,
  uid: number,
  hash: string,
  now: string,
  onRefused: (holder: number) => void,
): Promise<void> {
  const holder = await trx
    .selectFrom("verifications")
    .select(["uid", "status", "held_until"])
    .where("id_hash", "=", hash)
    .where("uid", "<>", uid)
    .executeTakeFirst();
  if (!holder) return;
  if (holder.status === ProcessStatus.Done) {
    onRefused(holder.uid);
    throw localDuplicated(DUPLICATE, "id_number");
  }
  if (holder.held_until && holder.held_until > now) {
    onRefused(holder.uid);
    const minutes = Math.max(1, Math.ceil((Date.parse(holder.held_until) - Date.parse(now)) / 60_000));
    throw localDuplicated(`该身份证号码正在其他账号的认证流程中，请 ${minutes} 分钟后再试`, "id_number");
  }
  await trx
    .updateTable("verifications")
    .set({ id_hash: null, held_until: null })
    .where("uid", "=", holder.uid)
    .where("id_hash", "=", hash)
    .where("status", "=", ProcessStatus.Processing)
    .execute();
}

/**
 * A request turns done: it takes the number, unless another account has verified it (then the
 * caller refuses); other accounts' unfinished holds of it are released (verification wins).
 * @returns the uid that verified the number first, or null when this request may have it
 */
export async function takeNumber(trx: Tx, uid: number, hash: string | null): Promise<number | null> {
  if (!hash) return null;
  const done = await trx
    .selectFrom("verifications")
    .select("uid")
    .where("claim_hash", "=", hash)
    .where("status", "=", ProcessStatus.Done)
    .where("uid", "<>", uid)
    .executeTakeFirst();
  if (done) return done.uid;
  await trx
    .updateTable("verifications")
    .set({ id_hash: null, held_until: null })
    .where("id_hash", "=", hash)
    .where("uid", "<>", uid)
    .where("status", "=", ProcessStatus.Processing)
    .execute();
  return null;
}

/**
 * Notes on the holder's request that `uid`'s submission of the number was refused because of it
 * (after the refused transaction rolled back), so operators see the number contested and by whom.
 * The holder is looked up again when not known (a verification that committed meanwhile).
 */
export async function recordRefusal(
  ctx: AppContext,
  uid: number,
  hash: string,
  provider: string,
  holder: number | null,
) {
  await transact(ctx, async (trx) => {
    const holderUid =
      holder ??
      (
        await trx
          .selectFrom("verifications")
          .select("uid")
          .where("id_hash", "=", hash)
          .where("uid", "<>", uid)
          .executeTakeFirst()
      )?.uid;
    if (holderUid === undefined) return;
    await lockUser(trx, holderUid);
    const row = await findRow(trx, holderUid);
    if (!row || row.claim_hash !== hash) return;
    const claims = [...refusedOf(row).filter((c) => c.uid !== uid), { uid, at: nowIso(), provider }].slice(
      -MAX_REFUSED_CLAIMS,
    );
    await trx
      .updateTable("verifications")
      .set({ refused_claims: JSON.stringify(claims) })
      .where("uid", "=", holderUid)
      .execute();
  });
}

/**
 * Other accounts' current claims (processing or done) of the number a request claims, then the
 * accounts whose submission of it was refused because this request held it.
 */
export async function contestedClaims(db: Kysely<DB>, row: VerificationTable): Promise<ContestedClaim[]> {
  if (!row.claim_hash) return [];
  const claims = await db
    .selectFrom("verifications")
    .select(["uid", "status", "provider"])
    .where("claim_hash", "=", row.claim_hash)
    .where("uid", "<>", row.uid)
    .where("status", "in", [ProcessStatus.Processing, ProcessStatus.Done])
    .orderBy("uid")
    .limit(50)
    .execute();
  const claiming = new Set(claims.map((c) => c.uid));
  return [
    ...claims.map((c) => ({ ...c, refused_at: null })),
    ...refusedOf(row)
      .filter((c) => !claiming.has(c.uid))
      .map((c) => ({ uid: c.uid, status: ProcessStatus.None, provider: c.provider, refused_at: c.at })),
  ];
}
