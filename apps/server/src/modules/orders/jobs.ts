import type { JobDef } from "../../shared/jobs";
import { expireSubscriptions } from "../subscriptions/subscriptions.service";
import { closeExpiredOrders } from "./orders.service";

/** The store's background jobs (started by buildApp outside tests; tests call the functions). */
export const storeJobs: JobDef[] = [
  { name: "orders.close-unpaid", everyMs: 60_000, run: (ctx) => closeExpiredOrders(ctx) },
  { name: "subscriptions.expire", everyMs: 60_000, run: (ctx) => expireSubscriptions(ctx) },
];
