import { SubscriptionStatus } from "@burrow/contract";
import type { Tx } from "../../shared/tx";
import { findSubscription } from "./subscriptions.repository";
import type { SubscriptionRow } from "./subscriptions.table";

const LIVE: number[] = [SubscriptionStatus.InUse, SubscriptionStatus.OverQuota];

/**
 * The free traffic (check-in bonus, gift-card traffic) a subscription has not used: usage is
 * charged against the paid traffic first (value.ts), so it is what is left beyond the paid part.
 */
export const unusedFreeQuota = (sub: Pick<SubscriptionRow, "free_quota" | "traffic_quota" | "traffic_used">): number =>
  Math.min(Number(sub.free_quota), Math.max(0, Number(sub.traffic_quota) - Number(sub.traffic_used)));

/**
 * The free traffic a purchase takes over from the live subscription it replaces (the free plan,
 * or the plan upgraded from): it moves to the new subscription as free traffic (docs/decisions.md,
 * "Bonus traffic follows the plan"). Read under the customer's lock, before the new one is opened.
 */
export async function carriedQuota(trx: Tx, replacedId: number | null): Promise<number> {
  if (replacedId === null) return 0;
  const old = await findSubscription(trx, replacedId);
  return old && LIVE.includes(old.status) ? unusedFreeQuota(old) : 0;
}
