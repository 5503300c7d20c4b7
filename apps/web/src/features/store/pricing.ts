import type { OrderQuote, PlanPeriod, PlanPeriodPrice, StorePlan } from "@burrow/contract";
import { fenToYuan, PlanPeriods } from "@burrow/contract";

/**
 * A multiplier as Chinese shoppers read it: 0.85 → "8.5折", 0.8 → "8折", 0.755 → "7.55折".
 * @param multiplier 0 < m ≤ 1
 * @returns the text, or "" when there is no discount (m ≥ 1)
 */
export function discountText(multiplier: number): string {
  if (!(multiplier > 0) || multiplier >= 1) return "";
  const tenths = Math.round(multiplier * 1_000) / 100;
  return `${Number(tenths.toFixed(2))}折`;
}

/**
 * The price of one period of a plan, or undefined when that period is not on sale.
 * @param plan a plan of the store
 * @param period the period
 */
export function periodOf(plan: Pick<StorePlan, "periods">, period: PlanPeriod): PlanPeriodPrice | undefined {
  return plan.periods.find((p) => p.period === period);
}

/**
 * The period to preselect: the wanted one when the plan sells it, else the first on sale.
 * @param plan the plan
 * @param wanted the period asked for (URL, switcher)
 */
export function pickPeriod(
  plan: Pick<StorePlan, "periods">,
  wanted: string | null | undefined,
): PlanPeriod | undefined {
  const match = plan.periods.find((p) => p.period === wanted);
  return (match ?? plan.periods[0])?.period;
}

/**
 * Periods that at least one of the plans sells, in SPEC order (for the store's period switcher).
 * @param plans the plans shown
 */
export function periodsOnSale(plans: Pick<StorePlan, "periods">[]): PlanPeriod[] {
  const sold = new Set(plans.flatMap((p) => p.periods.map((x) => x.period)));
  return PlanPeriods.filter((p) => sold.has(p));
}

/**
 * What a period costs per month, for comparing periods ("约 ¥8.33/月").
 * @param price the period's price, fen
 * @param months months in the period
 */
export function monthlyEquivalent(price: number, months: number): number {
  return months > 0 ? Math.round(price / months) : price;
}

/** One line of an order's price breakdown. */
export interface QuoteLine {
  key: "fee" | "plan_discount" | "code_discount" | "upgrade_credit" | "bonus" | "amount";
  label: string;
  /** fen; negative for what is taken off */
  fen: number;
}

/**
 * The breakdown of an order's price as the checkout shows it, leaving out lines that are zero:
 * list price, the plan's period discount, the promo code, the upgrade credit actually deducted,
 * the recharge bonus and what is paid. The lines add up: fee − discounts − credit = amount.
 * @param q the server's quote (POST /user/order/preview), or an order (the same lines)
 */
export function quoteLines(
  q: Pick<OrderQuote, "fee" | "price" | "code" | "code_discount" | "upgrade_credit" | "bonus" | "amount">,
): QuoteLine[] {
  const lines: QuoteLine[] = [{ key: "fee", label: "原价", fen: q.fee }];
  if (q.fee > q.price) lines.push({ key: "plan_discount", label: "周期折扣", fen: q.price - q.fee });
  if (q.code_discount > 0) {
    lines.push({ key: "code_discount", label: `优惠码 ${q.code ?? ""}`.trim(), fen: -q.code_discount });
  }
  const deducted = q.price - q.code_discount - q.amount;
  if (q.upgrade_credit > 0 && deducted > 0) lines.push({ key: "upgrade_credit", label: "原套餐抵扣", fen: -deducted });
  if (q.bonus > 0) lines.push({ key: "bonus", label: "充值赠送", fen: q.bonus });
  lines.push({ key: "amount", label: "应付金额", fen: q.amount });
  return lines;
}

/**
 * A signed amount for a breakdown line: "-¥1.50", "¥10.00", "+¥5.00" (bonus).
 * @param line the line
 */
export function lineText(line: QuoteLine): string {
  if (line.fen < 0) return `-¥${fenToYuan(-line.fen)}`;
  return `${line.key === "bonus" ? "+" : ""}¥${fenToYuan(line.fen)}`;
}

/** The unit a period's price is quoted in: "¥30.00/季". */
export const PeriodUnit: Record<PlanPeriod, string> = {
  monthly: "月",
  quarterly: "季",
  semiannual: "半年",
  annual: "年",
};

/**
 * A bandwidth limit for people: 0 means unlimited.
 * @param mbps Mbps
 */
export function bandwidthText(mbps: number): string {
  return mbps > 0 ? `${mbps} Mbps` : "不限";
}
