import {
  type AdminPlan,
  applyMultiplier,
  type CreatePlanBody,
  fenToYuan,
  MONTHLY_ONLY_FEES,
  OrderType,
  type PlanPeriod,
  type UpdatePlanBody,
  yuanToFen,
} from "@burrow/contract";

/** The plan form's values: fees in yuan as typed (null = the period is not on sale). */
export interface PlanFormValues {
  name: string;
  tag: string;
  simple_desc: string;
  /** 2 plan, 3 traffic pack */
  type: 2 | 3;
  level_id: number | null;
  /** GB per month */
  traffic: number | null;
  sort: number | null;
  /** Mbps, 0 = unlimited */
  bandwidth: number | null;
  tunnel_limit: number | null;
  tunnel_peer_port_limit: number | null;
  monthly_fee: number | null;
  monthly_fee_discount: number | null;
  quarterly_fee: number | null;
  quarterly_fee_discount: number | null;
  semiannual_fee: number | null;
  semiannual_fee_discount: number | null;
  annual_fee: number | null;
  annual_fee_discount: number | null;
  on_sale: boolean;
  is_default: boolean;
}

/** Field names of a period's fee and discount. */
export const feeField = (p: PlanPeriod) => `${p}_fee` as const;
export const discountField = (p: PlanPeriod) => `${p}_fee_discount` as const;

/** A new plan's form: a monthly plan on sale, no discounts. */
export const emptyPlanForm: PlanFormValues = {
  name: "",
  tag: "",
  simple_desc: "",
  type: OrderType.Plan,
  level_id: null,
  traffic: null,
  sort: 0,
  bandwidth: null,
  tunnel_limit: null,
  tunnel_peer_port_limit: null,
  monthly_fee: null,
  monthly_fee_discount: 1,
  ...MONTHLY_ONLY_FEES,
  on_sale: true,
  is_default: false,
};

const fenToYuanNumber = (fen: number | null) => (fen === null ? null : Number(fenToYuan(fen)));

/**
 * The form values of an existing plan (fees fen → yuan).
 * @param p the plan as GET /super/plan answers it
 */
export function planToForm(p: AdminPlan): PlanFormValues {
  return {
    name: p.name,
    tag: p.tag,
    simple_desc: p.simple_desc,
    type: p.type === OrderType.TrafficPack ? OrderType.TrafficPack : OrderType.Plan,
    level_id: p.level_id,
    traffic: p.traffic,
    sort: p.sort,
    bandwidth: p.bandwidth,
    tunnel_limit: p.tunnel_limit,
    tunnel_peer_port_limit: p.tunnel_peer_port_limit,
    monthly_fee: fenToYuanNumber(p.monthly_fee),
    monthly_fee_discount: p.monthly_fee_discount,
    quarterly_fee: fenToYuanNumber(p.quarterly_fee),
    quarterly_fee_discount: p.quarterly_fee_discount,
    semiannual_fee: fenToYuanNumber(p.semiannual_fee),
    semiannual_fee_discount: p.semiannual_fee_discount,
    annual_fee: fenToYuanNumber(p.annual_fee),
    annual_fee_discount: p.annual_fee_discount,
    on_sale: p.on_sale,
    is_default: p.is_default,
  };
}

const feeToFen = (yuan: number | null | undefined) => (yuan === null || yuan === undefined ? null : yuanToFen(yuan));

/**
 * The body of POST /super/plan (and, with `id`, of PATCH) from the form: yuan → integer fen, an
 * empty fee → null (the period is not sold), an empty discount → 1, texts trimmed.
 * @param v validated form values
 */
export function formToPlanBody(v: PlanFormValues): CreatePlanBody {
  return {
    name: v.name.trim(),
    tag: (v.tag ?? "").trim(),
    simple_desc: (v.simple_desc ?? "").trim(),
    type: v.type,
    level_id: v.level_id ?? 0,
    traffic: v.traffic ?? 0,
    sort: v.sort ?? 0,
    bandwidth: v.bandwidth ?? 0,
    tunnel_limit: v.tunnel_limit ?? 0,
    tunnel_peer_port_limit: v.tunnel_peer_port_limit ?? 0,
    monthly_fee: feeToFen(v.monthly_fee),
    monthly_fee_discount: v.monthly_fee_discount ?? 1,
    quarterly_fee: feeToFen(v.quarterly_fee),
    quarterly_fee_discount: v.quarterly_fee_discount ?? 1,
    semiannual_fee: feeToFen(v.semiannual_fee),
    semiannual_fee_discount: v.semiannual_fee_discount ?? 1,
    annual_fee: feeToFen(v.annual_fee),
    annual_fee_discount: v.annual_fee_discount ?? 1,
    on_sale: v.on_sale,
    // Only a plan (not a traffic pack) can be the free default.
    is_default: v.type === OrderType.Plan && v.is_default,
  };
}

/**
 * What a customer would pay for a period as the operator types it, for the form's hint.
 * @param feeYuan the fee typed, yuan
 * @param discount the multiplier typed
 * @returns fen, or null when the period is not on sale
 */
export function previewPrice(feeYuan: number | null | undefined, discount: number | null | undefined): number | null {
  if (feeYuan === null || feeYuan === undefined) return null;
  return applyMultiplier(yuanToFen(feeYuan), discount ?? 1);
}

/**
 * The PATCH body of an edit: the id and only the fields that changed, so that an edit never
 * touches what the operator did not (in particular the default flag of the default plan).
 * @param original the plan as listed
 * @param v the edited form values
 */
export function planPatch(original: AdminPlan, v: PlanFormValues): UpdatePlanBody {
  const before = formToPlanBody(planToForm(original));
  const after = formToPlanBody(v);
  const patch: Record<string, unknown> = { id: original.id };
  for (const key of Object.keys(after) as (keyof CreatePlanBody)[]) {
    if (after[key] !== before[key]) patch[key] = after[key];
  }
  return patch as UpdatePlanBody;
}
