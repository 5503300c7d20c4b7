import { z } from "zod";
import { MAX_FEN } from "./money";

/** Field rules shared by the store's schemas (plans, orders, promotions). */

/** An amount of money in fen, named in its messages. */
export const fenAmount = (label: string) =>
  z
    .number({ error: `${label}必须是数字（单位：分）` })
    .int(`${label}必须是整数（单位：分）`)
    .min(0, `${label}不能为负数`)
    .max(MAX_FEN, `${label}过大`);
/** A price multiplier: 0 < m ≤ 1 (1 no discount, 0.85 fifteen percent off). */
export const feeDiscount = z
  .number({ error: "折扣必须是数字" })
  .gt(0, "折扣必须大于 0")
  .max(1, "折扣不能大于 1（1 表示不打折，0.85 表示八五折）");
/** A yes/no field that also takes 0/1. */
export const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);
/** A positive integer id, named in its messages. */
export const positiveId = (label: string) =>
  z
    .number({ error: `${label}必须是数字` })
    .int(`${label}无效`)
    .min(1, `${label}无效`);

/** A trade id as Burrow issues it. */
