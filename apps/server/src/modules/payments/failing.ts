import type { AppContext } from "../../context";
import { recordEvent } from "../../shared/outbox";
import { transact } from "../../shared/tx";

/** Refused payment notifications in one hour that make the operators' "payment.failing" notice. */
export const PAYMENT_FAILING_AT = 5;

/**
 * Counts one refused payment notification (bad signature, unknown order, amount differs) in the
 * current UTC hour; the refusal that reaches PAYMENT_FAILING_AT records "payment.failing", once an
 * hour (the key): a misconfigured gateway or someone probing the notify URL, either way the
 * operators should look.
 */
export async function noteRefusedPayment(ctx: AppContext, reason: string, now = new Date()): Promise<void> {
  const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString();
  const r = await ctx.limiter.hit(`payments:refused:${hour}`, PAYMENT_FAILING_AT, 3600);
  if (r.count !== PAYMENT_FAILING_AT) return;
  await transact(ctx, (trx) =>
    recordEvent(
      trx,
      "payment.failing",
      { failures: r.count, since: hour, last_reason: reason },
      { key: `payment.failing:${hour}`, now },
    ),
  );
}
