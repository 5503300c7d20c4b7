import { AutopayStateAnswer } from "../answers/autopay";
import { type AutopayState, AutoRenewBody, TopupRuleBody } from "../autopay";
import { endpoint } from "../endpoint";

/**
 * Automatic purchases: console sessions only (no token scope), since they set up money-moving
 * purchases from the balance.
 */
export const AutopayApi = {
  getUserAutopay: endpoint<AutopayState>()({
    method: "GET",
    url: "/user/autopay",
    access: "user",
    answer: AutopayStateAnswer,
    summary: "the customer's auto-renewal switches, top-up rule and what top-ups spent this month",
  }),
  putUserAutopayRenewal: endpoint<AutopayState>()({
    method: "PUT",
    url: "/user/autopay/renewal",
    access: "user",
    answer: AutopayStateAnswer,
    summary: "turns auto-renewal of one of the customer's paid plans on or off",
    body: AutoRenewBody,
  }),
  putUserAutopayTopup: endpoint<AutopayState>()({
    method: "PUT",
    url: "/user/autopay/topup",
    access: "user",
    answer: AutopayStateAnswer,
    summary: "saves the automatic traffic top-up rule; when on and traffic is already low, it buys at once",
    body: TopupRuleBody,
  }),
} as const;
