import type { AdminPlan } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { emptyPlanForm, formToPlanBody, type PlanFormValues, planPatch, planToForm, previewPrice } from "./plan-form";

const plan: AdminPlan = {
  id: 7,
  name: "标准版",
  tag: "热销",
  simple_desc: "适合个人",
  traffic: 100,
  type: 2,
  level_id: 2,
  level_name: "标准版",
  sort: 1,
  bandwidth: 20,
  tunnel_limit: 8,
  tunnel_peer_port_limit: 2,
  monthly_fee: 1990,
  monthly_fee_discount: 1,
  quarterly_fee: 5970,
  quarterly_fee_discount: 0.9,
  semiannual_fee: null,
  semiannual_fee_discount: 1,
  annual_fee: 23880,
  annual_fee_discount: 0.75,
  on_sale: true,
  is_default: false,
  live_subscriptions: 3,
  created_at: "2026-01-01T00:00:00.000Z",
};

describe("plan form", () => {
  it("shows fees in yuan and sends them in fen, an empty fee as not on sale", () => {
    const form = planToForm(plan);
    expect(form).toMatchObject({ monthly_fee: 19.9, quarterly_fee: 59.7, semiannual_fee: null, annual_fee: 238.8 });
    const body = formToPlanBody(form);
    expect(body).toMatchObject({
      monthly_fee: 1990,
      quarterly_fee: 5970,
      quarterly_fee_discount: 0.9,
      semiannual_fee: null,
      annual_fee: 23880,
      annual_fee_discount: 0.75,
    });
  });

  it("converts typed yuan without float noise and trims texts", () => {
    const values: PlanFormValues = {
      ...emptyPlanForm,
      name: "  新套餐 ",
      tag: " 推荐 ",
      level_id: 3,
      traffic: 50,
      bandwidth: 0,
      tunnel_limit: 5,
      tunnel_peer_port_limit: 1,
      monthly_fee: 0.1 + 0.2,
      quarterly_fee: 27,
      quarterly_fee_discount: null,
    };
    const body = formToPlanBody(values);
    expect(body).toMatchObject({
      name: "新套餐",
      tag: "推荐",
      simple_desc: "",
      type: 2,
      level_id: 3,
      monthly_fee: 30,
      quarterly_fee: 2700,
      quarterly_fee_discount: 1,
      annual_fee: null,
      on_sale: true,
      is_default: false,
    });
  });

  it("never makes a traffic pack the default plan", () => {
    expect(formToPlanBody({ ...planToForm(plan), type: 3, is_default: true }).is_default).toBe(false);
    expect(formToPlanBody({ ...planToForm(plan), is_default: true }).is_default).toBe(true);
  });

  it("patches only what changed", () => {
    expect(planPatch(plan, planToForm(plan))).toEqual({ id: 7 });
    expect(planPatch(plan, { ...planToForm(plan), quarterly_fee: 60, tag: "新品" })).toEqual({
      id: 7,
      quarterly_fee: 6000,
      tag: "新品",
    });
    // Clearing a fee takes the period off sale.
    expect(planPatch(plan, { ...planToForm(plan), annual_fee: null })).toEqual({ id: 7, annual_fee: null });
    // The default flag of the default plan is not sent unless it changes.
    const def = { ...plan, is_default: true };
    expect(planPatch(def, { ...planToForm(def), name: "免费版" })).toEqual({ id: 7, name: "免费版" });
  });

  it("previews the customer's price as typed", () => {
    expect(previewPrice(27, 0.9)).toBe(2430);
    expect(previewPrice(19.9, 0.85)).toBe(1692);
    expect(previewPrice(10, null)).toBe(1000);
    expect(previewPrice(null, 0.9)).toBeNull();
    expect(previewPrice(undefined, 1)).toBeNull();
  });
});
