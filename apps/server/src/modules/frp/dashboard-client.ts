/** The frps dashboard client lives in @burrow/frp-decision: the node agent reads its frps with the same parsing. */
export * from "@burrow/frp-decision/dashboard";
