import {
  applyMultiplier,
  type PlanPeriod,
  PlanPeriodMonths,
  type PlanPeriodPrice,
  PlanPeriods,
} from "@burrow/contract";
import type { PlanRow } from "./plans.table";

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
