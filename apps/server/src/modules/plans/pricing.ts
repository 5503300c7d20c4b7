import { type PlanPeriod, PlanPeriodMonths, type PlanPeriodPrice, PlanPeriods } from "@burrow/contract";
import type { PlanRow } from "./plans.table";

/**
 * Applies a multiplier (0.85 = 15 % off) to an amount in fen, in integers: the multiplier is taken
 * to 4 decimals and the result rounds half up to the fen, so 19.90 × 0.85 is always 16.92.
 */
export function applyMultiplier(fen: number, multiplier: number): number {
  const m = Math.round(multiplier * 10_000);
  return Math.floor((fen * m + 5_000) / 10_000);
}

/** A plan's fee, discount and final price for one period, or null when that period is not on sale. */
export function periodPrice(plan: PlanRow, period: PlanPeriod): PlanPeriodPrice | null {
  const fee = plan[`${period}_fee`];
  if (fee === null || fee === undefined) return null;
  const feeDiscount = Number(plan[`${period}_fee_discount`]);
  return {
    period,
    months: PlanPeriodMonths[period],
    fee: Number(fee),
    fee_discount: feeDiscount,
    price: applyMultiplier(Number(fee), feeDiscount),
  };
}

/** Every period of a plan that is on sale, monthly → annual. */
export function planPeriods(plan: PlanRow): PlanPeriodPrice[] {
  return PlanPeriods.map((p) => periodPrice(plan, p)).filter((p): p is PlanPeriodPrice => p !== null);
}
