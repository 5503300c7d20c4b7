import type { Generated, Insertable, Selectable } from "kysely";

/** An order: what was bought, how it was priced, how it was paid and what it did. Money in fen. */
export interface OrderTable {
  id: Generated<number>;
  trade_id: string;
  uid: number;
  /** OrderType: 1 recharge, 2 plan, 3 traffic pack, 4 renewal */
  type: number;
  /** PayMethod: 1 balance, 2 online */
  pay_method: number;
  /** gateway channel (alipay, wxpay, qqpay) for online payments */
  pay_type: string | null;
  /** PayStatus: -2 refunded, -1 closed, 1 paid, 2 awaiting */
  status: number;
  /** the product name sent to the gateway */
  name: string;
  /** OrderAction decided when the order was priced */
  action: string;
  plan_id: number | null;
  period: string | null;
  months: number | null;
  /** list price of the period, or the recharge amount */
  fee: number;
  /** after the plan's fee discount */
  price: number;
  discount_code_id: number | null;
  discount_code: string | null;
  code_discount: number;
  upgrade_credit: number;
  bonus: number;
  /** what the customer pays */
  amount: number;
  /** the subscription opened, extended or renewed */
  subscription_id: number | null;
  /** the plan subscription an upgrade (or a first paid plan) replaces */
  replaces_subscription_id: number | null;
  /** how a paid order was fulfilled: "applied", or "credited" (the money went to the balance) */
  fulfilment: string | null;
  /** for extensions: the end before and after, so that a refund can take exactly that back */
  sub_end_before: string | null;
  sub_end_after: string | null;
  quota_added: Generated<number>;
  /** what was added to subscriptions.paid_amount */
  value_added: Generated<number>;
  /** what the refund of this order credited to the balance */
  refunded_amount: Generated<number>;
  note: string;
  pay_url: string | null;
  channel_trade_id: string | null;
  /** the address the customer placed the order from (the operators' "same payer" signal) */
  client_ip: string | null;
  created_at: string;
  expires_at: string;
  paid_at: string | null;
  closed_at: string | null;
  refunded_at: string | null;
  /** 1: bought by an automatic rule (auto-renewal, traffic top-up; modules/autopay) */
  automatic: Generated<number>;
}
export type OrderRow = Selectable<OrderTable>;
export type NewOrderRow = Insertable<OrderTable>;

export interface OrderTables {
  orders: OrderTable;
}
