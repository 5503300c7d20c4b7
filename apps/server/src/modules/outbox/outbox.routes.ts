import { OutboxApi, type OutboxDelivery } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import type { Operator } from "../../shared/actor";
import { listDeliveries, retryDelivery } from "../../shared/outbox-admin";
import { transact } from "../../shared/tx";
import { audit } from "../audit/audit";

/** Dead letters of the domain-event outbox, for Managers: the list and the retry. */
export function outboxRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, OutboxApi.getSuperOutboxDeliveries, ({ query }) => listDeliveries(ctx.db, query));
  defineRoute(app, ctx, OutboxApi.postSuperOutboxRetry, ({ operator, params }) =>
    retryOutboxDelivery(ctx, operator, params.id),
  );
}

/** Retries one delivery (audited in the same transaction) and wakes the dispatchers. */
export async function retryOutboxDelivery(ctx: AppContext, operator: Operator, id: number): Promise<OutboxDelivery> {
  return transact(ctx, async (trx) => {
    const { before, after } = await retryDelivery(trx, id);
    await audit(trx, {
      operatorUid: operator.uid,
      action: "outbox.retry",
      target: `outboxDelivery:${id}`,
      detail: {
        before: { status: before.status, attempts: before.attempts },
        after: { status: after.status, attempts: after.attempts },
        event_id: before.event_id,
        handler: before.handler,
      },
      ip: operator.ip,
    });
    // Due now: the wake-up runs it after the commit instead of at the next poll.
    trx.changes.emit("outbox.recorded", {});
    return after;
  });
}
