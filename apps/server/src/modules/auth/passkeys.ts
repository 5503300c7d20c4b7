import type { PasskeyInfo, PasskeyOptions, PasskeyRegisterBody, TotpDisableBody } from "@burrow/contract";
import {
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Kysely } from "kysely";
import type { AppContext } from "../../context";
import { isUniqueViolation } from "../../db/errors";
import type { DB } from "../../db/schema";
import type { Operator } from "../../shared/actor";
import type { Principal } from "../../shared/auth";
import { invalid, localDuplicated, notFound, refused } from "../../shared/errors";
import { lockUser } from "../../shared/locks";
import { nowIso } from "../../shared/time";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";
import { findUserByUid } from "../users/users.repository";
import { checkPasswordLimited } from "./auth.service";
import { checkSecondFactor, mfaRequiredFor, secondFactorError, totpEnabled } from "./mfa";
import { SESSION_KIND } from "./sessions";
import {
  challengeBytes,
  issueChallenge,
  PASSKEY_CHALLENGE_TTL_SEC,
  passkeysOf,
  relyingParty,
  spendChallenge,
  transportsOf,
  userHandleOf,
  webauthnError,
} from "./webauthn";

/*
 * An account's passkeys, managed from 个人中心 (issue 34 §1; docs/security.md "Passkeys"):
 * registered with a challenge bound to the session that asked, listed, renamed, deleted with the
 * password or a second factor. Register and delete are audited.
 */

/** Passkeys one account may hold: enough for every device, and a bound on what a session can add. */
export const MAX_PASSKEYS = 10;

const present = (r: {
  id: number;
  name: string;
  transports: string;
  created_at: string;
  last_used_at: string | null;
}): PasskeyInfo => ({
  id: r.id,
  name: r.name,
  transports: transportsOf(r.transports),
  created_at: r.created_at,
  last_used_at: r.last_used_at,
});

export async function listPasskeys(ctx: AppContext, uid: number): Promise<PasskeyInfo[]> {
  return (await passkeysOf(ctx.db, uid)).map(present);
}

/** Registration is a console session's act: its challenge is bound to that session. */
function sessionOf(user: Principal): string {
  if (user.kind !== SESSION_KIND) throw refused("请在控制台登录后添加通行密钥");
  return user.credentialId;
}

/**
 * Registration options for a new passkey: discoverable (it signs in without a phone number), the
 * account's passkeys excluded (an authenticator holding one answers that it does), no attestation.
 */
export async function passkeyRegistrationOptions(
  ctx: AppContext,
  user: Principal,
  ip: string,
): Promise<PasskeyOptions> {
  const sid = sessionOf(user);
  const rp = relyingParty(ctx);
  const account = await findUserByUid(ctx.db, user.uid);
  if (!account) throw notFound("用户");
  const existing = await passkeysOf(ctx.db, user.uid);
  if (existing.length >= MAX_PASSKEYS) throw refused(`最多添加 ${MAX_PASSKEYS} 个通行密钥，请先删除不用的`);
  const { challenge, expires_at } = await issueChallenge(ctx, "register", { uid: user.uid, to: sid, ip });
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: account.phone,
    userDisplayName: account.nickname,
    userID: userHandleOf(user.uid),
    challenge: challengeBytes(challenge),
    timeout: PASSKEY_CHALLENGE_TTL_SEC * 1000,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  return { options: { ...options }, expires_at };
}

/** Verifies the browser's answer to the options (challenge, origin, RP ID, signature) and stores the passkey. */
export async function registerPasskey(
  ctx: AppContext,
  user: Principal,
  body: PasskeyRegisterBody,
  op: Operator,
): Promise<PasskeyInfo> {
  const sid = sessionOf(user);
  const rp = relyingParty(ctx);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: body.credential as RegistrationResponseJSON,
      expectedChallenge: (c) => spendChallenge(ctx, c, "register", { uid: user.uid, to: sid }),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (err) {
    throw webauthnError(err);
  }
  if (!verified.verified) throw webauthnError(null);
  const cred = verified.registrationInfo.credential;
  const now = nowIso();
  try {
    return await transact(ctx, async (trx) => {
      // Counted under the account's lock: two registrations at once cannot both pass the cap.
      await lockUser(trx, user.uid);
      const n = await trx
        .selectFrom("passkeys")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("uid", "=", user.uid)
        .executeTakeFirstOrThrow();
      if (Number(n.n) >= MAX_PASSKEYS) throw refused(`最多添加 ${MAX_PASSKEYS} 个通行密钥，请先删除不用的`);
      const row = {
        uid: user.uid,
        credential_id: cred.id,
        public_key: Buffer.from(cred.publicKey).toString("base64url"),
        counter: cred.counter,
        transports: JSON.stringify(cred.transports ?? []),
        name: body.name,
        created_at: now,
        last_used_at: null,
      };
      const { id } = await trx.insertInto("passkeys").values(row).returning("id").executeTakeFirstOrThrow();
      await audit(trx, {
        operatorUid: op.uid,
        action: "passkey.register",
        target: `user:${user.uid}`,
        detail: { passkey: id, name: body.name },
        ip: op.ip,
      });
      return present({ ...row, id });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw localDuplicated("该通行密钥已经添加过了", "credential");
    throw err;
  }
}

/** Refuses to delete the account's last second factor while the operator requires one of its role. */
async function assertNotLastRequired(
  ctx: AppContext,
  db: Kysely<DB>,
  user: { uid: number; role: number },
  id: number,
): Promise<void> {
  if (!mfaRequiredFor(ctx, user.role) || (await totpEnabled(db, user.uid))) return;
  const others = await db
    .selectFrom("passkeys")
    .select("id")
    .where("uid", "=", user.uid)
    .where("id", "!=", id)
    .execute();
  if (others.length === 0) throw refused("站点要求管理人员必须使用两步验证，不能删除最后一个通行密钥");
}

export async function renamePasskey(ctx: AppContext, uid: number, id: number, name: string): Promise<void> {
  const r = await ctx.db
    .updateTable("passkeys")
    .set({ name })
    .where("id", "=", id)
    .where("uid", "=", uid)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw notFound("通行密钥");
}

/**
 * Deletes a passkey, proven by the password or a TOTP (or recovery) code, each under its sign-in
 * failure limit. The last second factor the operator requires of the account's role stays.
 */
export async function deletePasskey(
  ctx: AppContext,
  uid: number,
  id: number,
  body: TotpDisableBody,
  op: Operator,
): Promise<void> {
  const user = await findUserByUid(ctx.db, uid);
  if (!user) throw notFound("用户");
  const mine = await passkeysOf(ctx.db, uid);
  const target = mine.find((p) => p.id === id);
  if (!target) throw notFound("通行密钥");
  const keepsLast = (db: Kysely<DB>) => assertNotLastRequired(ctx, db, user, id);
  await keepsLast(ctx.db);
  if (body.code !== undefined) {
    const r = await checkSecondFactor(ctx, uid, op.ip, body.code, { recovery: true });
    if (r !== "ok") throw secondFactorError(r);
  } else if (!(await checkPasswordLimited(ctx, user.phone, op.ip, user.password_hash, body.password ?? "")))
    throw invalid("password", "密码错误");
  await transact(ctx, async (trx) => {
    await lockUser(trx, uid);
    // Again under the lock: two deletions at once cannot each leave the other as the last one.
    await keepsLast(trx);
    const r = await trx.deleteFrom("passkeys").where("id", "=", id).where("uid", "=", uid).executeTakeFirst();
    if (Number(r.numDeletedRows) !== 1) throw notFound("通行密钥");
    await audit(trx, {
      operatorUid: op.uid,
      action: "passkey.delete",
      target: `user:${uid}`,
      detail: { passkey: id, name: target.name },
      ip: op.ip,
    });
  });
}
