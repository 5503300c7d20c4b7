import { LoginBody, RegisterBody, ResetBody, SmsBody } from "@burrow/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { login, register, requestSmsCode, resetPassword } from "./auth.service";
import { authenticate, revokeSessions } from "./sessions";

export const clientMeta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: String(req.headers["user-agent"] ?? "") });

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: "POST",
    url: "/auth/sms",
    access: "public",
    body: SmsBody,
    handler: ({ body, req }) => requestSmsCode(ctx, body.phone, body.scene, clientMeta(req)),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/auth/register",
    access: "public",
    body: RegisterBody,
    handler: ({ body, req }) => register(ctx, body, clientMeta(req)),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/auth/login",
    access: "public",
    body: LoginBody,
    handler: ({ body, req }) => login(ctx, body, clientMeta(req)),
  });
  defineRoute(app, ctx, {
    method: "POST",
    url: "/auth/reset",
    access: "public",
    body: ResetBody,
    handler: ({ body }) => resetPassword(ctx, body),
  });
  // Logout is public so that a client holding an already-invalid token can still "log out".
  defineRoute(app, ctx, {
    method: "POST",
    url: "/auth/logout",
    access: "public",
    handler: async ({ req }) => {
      const user = await authenticate(ctx, req).catch(() => null);
      if (user) await revokeSessions(ctx.db, { sid: user.sid });
      return null;
    },
  });
}
