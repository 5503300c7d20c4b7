import { AuthApi } from "@burrow/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { direct } from "../../shared/tx";
import { login, register, requestSmsCode, resetPassword } from "./auth.service";
import { confirmSetup, startSetup, verifySignIn } from "./challenge";
import { changePassword, changePhone } from "./credentials";
import { listSessions, revokeOtherSessions, revokeOwnSession } from "./devices";
import { confirmTotp, disableTotp, mfaStatus, regenerateRecoveryCodes, startTotp } from "./mfa";
import { passkeyMfa, passkeyMfaOptions, passkeySignIn, passkeySignInOptions } from "./passkey-signin";
import { deletePasskey, listPasskeys, passkeyRegistrationOptions, registerPasskey, renamePasskey } from "./passkeys";
import { revokeSessions, SESSION_KIND } from "./sessions";

export const clientMeta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers["user-agent"] ?? "") });

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, AuthApi.postAuthSms, ({ body, req }) =>
    requestSmsCode(ctx, body.phone, body.scene, clientMeta(req)),
  );
  defineRoute(app, ctx, AuthApi.postAuthRegister, ({ body, req }) => register(ctx, body, clientMeta(req)));
  defineRoute(app, ctx, AuthApi.postAuthLogin, ({ body, req }) => login(ctx, body, clientMeta(req)));
  defineRoute(app, ctx, AuthApi.postAuthReset, ({ body }) => resetPassword(ctx, body));
  // Logout is public so that a client holding an already-invalid token can still "log out".
  defineRoute(app, ctx, AuthApi.postAuthLogout, async ({ req }) => {
    // Any session, an appeal session too; other credential kinds (API tokens) are not signed out.
    const user = await ctx.auth.authenticate(req.headers.authorization).catch(() => null);
    if (user?.kind === SESSION_KIND) await revokeSessions(direct(ctx), { uid: user.uid, sid: user.credentialId });
    return null;
  });
  defineRoute(app, ctx, AuthApi.postUserPassword, ({ user, body, req }) => changePassword(ctx, user.uid, body, req.ip));
  defineRoute(app, ctx, AuthApi.postUserPhone, ({ user, body }) => changePhone(ctx, user.uid, body));

  // Two-factor sign-in: the second step and the staff enrolment take the challenge, not a session.
  defineRoute(app, ctx, AuthApi.postAuthMfa, ({ body, req }) => verifySignIn(ctx, body, clientMeta(req)));
  defineRoute(app, ctx, AuthApi.postAuthMfaSetup, ({ body }) => startSetup(ctx, body));
  defineRoute(app, ctx, AuthApi.postAuthMfaSetupConfirm, ({ body, req }) => confirmSetup(ctx, body, clientMeta(req)));
  defineRoute(app, ctx, AuthApi.getUserMfa, ({ user }) => mfaStatus(ctx, user.uid, user.role));
  defineRoute(app, ctx, AuthApi.postUserMfaTotp, ({ user }) => startTotp(ctx, user.uid));
  defineRoute(app, ctx, AuthApi.postUserMfaTotpConfirm, ({ user, body, req }) =>
    confirmTotp(ctx, user.uid, body.code, req.ip),
  );
  defineRoute(app, ctx, AuthApi.postUserMfaRecoveryCodes, ({ user, body, req }) =>
    regenerateRecoveryCodes(ctx, user.uid, body.code, req.ip),
  );
  defineRoute(app, ctx, AuthApi.postUserMfaTotpDisable, async ({ user, body, req }) => {
    await disableTotp(ctx, user.uid, body, req.ip);
    return null;
  });

  // The account's sessions (device, address, last seen) and signing them out.
  defineRoute(app, ctx, AuthApi.getUserSessions, ({ user }) => listSessions(ctx.db, user));
  defineRoute(app, ctx, AuthApi.deleteUserSession, async ({ user, params }) => {
    await revokeOwnSession(ctx, user.uid, params.sid);
    return null;
  });
  defineRoute(app, ctx, AuthApi.postUserSessionsRevokeOthers, async ({ user }) => {
    await revokeOtherSessions(ctx, user);
    return null;
  });

  // Passkeys: managed from 个人中心; a sign-in of their own, or the second step instead of a code.
  defineRoute(app, ctx, AuthApi.getUserPasskeys, ({ user }) => listPasskeys(ctx, user.uid));
  defineRoute(app, ctx, AuthApi.postUserPasskeysOptions, ({ user, req }) =>
    passkeyRegistrationOptions(ctx, user, req.ip),
  );
  defineRoute(app, ctx, AuthApi.postUserPasskeys, ({ user, body, operator }) =>
    registerPasskey(ctx, user, body, operator),
  );
  defineRoute(app, ctx, AuthApi.patchUserPasskey, async ({ user, params, body }) => {
    await renamePasskey(ctx, user.uid, params.id, body.name);
    return null;
  });
  defineRoute(app, ctx, AuthApi.postUserPasskeyDelete, async ({ user, params, body, operator }) => {
    await deletePasskey(ctx, user.uid, params.id, body, operator);
    return null;
  });
  defineRoute(app, ctx, AuthApi.postAuthPasskeyOptions, ({ req }) => passkeySignInOptions(ctx, clientMeta(req)));
  defineRoute(app, ctx, AuthApi.postAuthPasskey, ({ body, req }) => passkeySignIn(ctx, body, clientMeta(req)));
  defineRoute(app, ctx, AuthApi.postAuthMfaPasskeyOptions, ({ body, req }) =>
    passkeyMfaOptions(ctx, body.challenge, clientMeta(req)),
  );
  defineRoute(app, ctx, AuthApi.postAuthMfaPasskey, ({ body, req }) => passkeyMfa(ctx, body, clientMeta(req)));
}
