import nodemailer, { type Transporter } from "nodemailer";
import type { AppContext } from "../../context";
import { type AppError, invalid, refused } from "../../shared/errors";
import { AppState } from "../../shared/module";

/**
 * Notice e-mail over SMTP (SMTP_URL, MAIL_FROM; docs/notices.md). Without SMTP_URL there is no
 * e-mail channel: the settings page shows it off with the reason, and nothing is queued for it.
 */
export const mailer = new AppState<Transporter | null>("notices.mailer", (ctx) =>
  ctx.config.SMTP_URL ? nodemailer.createTransport(ctx.config.SMTP_URL) : null,
);

export const NO_SMTP_REASON = "站点未配置邮件服务器（SMTP），暂不能通过邮件通知";

export const mailAvailable = (ctx: AppContext): boolean => mailer.of(ctx) !== null;

/** Sends one plain-text message; throws what the SMTP server answered on a refusal. */
export async function sendMail(ctx: AppContext, to: string, subject: string, text: string): Promise<void> {
  const transport = mailer.of(ctx);
  if (!transport) throw new Error(NO_SMTP_REASON);
  const host = ctx.config.PUBLIC_URL ? new URL(ctx.config.PUBLIC_URL).hostname : "localhost";
  const from = ctx.config.MAIL_FROM ?? `Burrow <noreply@${host}>`;
  await transport.sendMail({ from, to, subject, text });
}

/**
 * What the customer is told when the SMTP server did not take a message to their address: a
 * permanent refusal of the recipient (5xx to RCPT TO) is the address's fault; anything else (the
 * server down, busy, refusing us) is not theirs to fix but worth trying again later.
 */
export function mailRefusal(err: unknown): AppError {
  const e = err as { command?: string; responseCode?: number } | null;
  if (e?.command === "RCPT TO" && (e.responseCode ?? 0) >= 500)
    return invalid("email", "邮件服务器拒收该地址，请检查邮箱地址是否填写正确");
  return refused("验证码邮件发送失败（邮件服务器暂时不可用），请稍后再试");
}
