/**
 * Money, one copy for server and web: amounts are integer fen (1/100 yuan) everywhere; yuan exist
 * only as text shown to people or numbers they type.
 */

/** The largest amount of money any field accepts (10 million yuan), in fen. */
export const MAX_FEN = 1_000_000_000;

/** Formats fen as yuan with two decimals ("12.30"), exactly (no floating point). */
export function fenToYuan(fen: number): string {
  const sign = fen < 0 ? "-" : "";
  const a = Math.abs(Math.trunc(fen));
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, "0")}`;
}

/** Converts a yuan amount a person typed (up to two decimals) to integer fen, rounding away float noise (0.1 + 0.2). */
export function yuanToFen(yuan: number): number {
  return Math.round(yuan * 100);
}

/**
 * Applies a multiplier (0.85 = 15 % off) to an amount in fen, in integers: the multiplier is taken
 * to 4 decimals and the result rounds half up to the fen, so 19.90 × 0.85 is always 16.92.
 */
export function applyMultiplier(fen: number, multiplier: number): number {
  const m = Math.round(multiplier * 10_000);
  return Math.floor((fen * m + 5_000) / 10_000);
}
