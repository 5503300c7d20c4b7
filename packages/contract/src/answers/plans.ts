import { z } from "zod";
import { int, time } from "../answers";
import { PlanPeriods } from "../enums";

/** Answers of the plans endpoints (issue 34 §2; see answers.ts). */

const fee = () => int().nullable().describe("fen per period; null: the period is not sold");
const feeDiscount = () => z.number().describe("multiplier, 0.85 = 15 % off");

export const AdminPlanAnswer = z.strictObject({
  id: int(),
  name: z.string(),
  tag: z.string(),
  simple_desc: z.string(),
  traffic: int().describe("GB per period"),
  type: int().describe("2 plan subscription, 3 traffic pack"),
  level_id: int(),
  sort: int(),
  bandwidth: int().describe("Mbps"),
  tunnel_limit: int(),
  tunnel_peer_port_limit: int(),
  monthly_fee: fee(),
  monthly_fee_discount: feeDiscount(),
  quarterly_fee: fee(),
  quarterly_fee_discount: feeDiscount(),
  semiannual_fee: fee(),
  semiannual_fee_discount: feeDiscount(),
  annual_fee: fee(),
  annual_fee_discount: feeDiscount(),
  level_name: z.string().nullable(),
  on_sale: z.boolean(),
  is_default: z.boolean(),
  live_subscriptions: int().describe("subscriptions in use or over quota"),
  created_at: time(),
});

export const DeletePlanResultAnswer = z.strictObject({
  deleted: z.boolean(),
  off_sale: z.boolean().describe("true: something refers to it, so it was taken off sale instead"),
});

export const PlanPeriodPriceAnswer = z.strictObject({
  period: z.enum(PlanPeriods),
  months: int(),
  fee: int().describe("list price, fen"),
  fee_discount: feeDiscount(),
  price: int().describe("fen, fee × fee_discount: what the customer pays before promo codes"),
});
