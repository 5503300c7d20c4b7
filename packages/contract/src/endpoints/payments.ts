import { endpoint } from "../endpoint";

/** The payments endpoints (see endpoint.ts). */
export const PaymentsApi = {
  getPayEpayNotify: endpoint<null>()({
    method: "GET",
    url: "/pay/epay/notify",
    access: "public",
    summary: "the payment gateway's asynchronous notify (query string); answers plain text success/fail",
    raw: "text",
  }),
  postPayEpayNotify: endpoint<null>()({
    method: "POST",
    url: "/pay/epay/notify",
    access: "public",
    summary: "the payment gateway's asynchronous notify (form body); answers plain text success/fail",
    raw: "text",
  }),
  getPayEpayReturn: endpoint<null>()({
    method: "GET",
    url: "/pay/epay/return",
    access: "public",
    summary: "the gateway sends the browser back here; redirects to /result/pay",
    raw: "redirect",
  }),
  getPaySandboxSubmit: endpoint<null>()({
    method: "GET",
    url: "/pay/sandbox/submit.php",
    access: "public",
    summary: "the sandbox gateway's cashier page (development only)",
    raw: "text",
  }),
  postPaySandboxPay: endpoint<null>()({
    method: "POST",
    url: "/pay/sandbox/pay",
    access: "public",
    summary: "the sandbox cashier's pay/cancel buttons (development only)",
    raw: "text",
  }),
} as const;
