import type { RechargePromotionRow } from "@burrow/contract";

/**
 * The bonus a recharge earns, by the server's rule (marketing/recharge-promotions.ts): the largest
 * bonus among the running promotions whose minimum it reaches; promotions do not add up.
 * @param promos the running promotions (GET /user/discountRecharge)
 * @param amount the recharge, fen
 * @returns the bonus, fen
 */
export function bonusFor(promos: Pick<RechargePromotionRow, "min_amount" | "bonus">[], amount: number): number {
  return promos.filter((p) => p.min_amount <= amount).reduce((max, p) => Math.max(max, p.bonus), 0);
}

/**
 * The promotion that applies to a recharge (the one giving {@link bonusFor}), if any.
 * @param promos the running promotions
 * @param amount the recharge, fen
 */
export function appliedPromotion<P extends Pick<RechargePromotionRow, "min_amount" | "bonus">>(
  promos: P[],
  amount: number,
): P | undefined {
  const bonus = bonusFor(promos, amount);
  if (bonus === 0) return undefined;
  return promos.find((p) => p.min_amount <= amount && p.bonus === bonus);
}

/**
 * The next better promotion a larger recharge would reach ("再充 ¥20.00 可得赠送 ¥10.00").
 * @param promos the running promotions
 * @param amount the recharge, fen
 * @returns the promotion with the smallest minimum above `amount` that gives more than now, and the fen missing
 */
export function nextPromotion<P extends Pick<RechargePromotionRow, "min_amount" | "bonus">>(
  promos: P[],
  amount: number,
): { promo: P; missing: number } | undefined {
  const now = bonusFor(promos, amount);
  const better = promos
    .filter((p) => p.min_amount > amount && p.bonus > now)
    .sort((a, b) => a.min_amount - b.min_amount || b.bonus - a.bonus)[0];
  return better ? { promo: better, missing: better.min_amount - amount } : undefined;
}
