import type { JobDef } from "../../shared/jobs";
import { expireSubscriptions } from "../subscriptions/subscriptions.service";
import { closeExpiredOrders } from "./orders.service";

/**
 * The store's background jobs, every JOBS_INTERVAL seconds (the orders manifest's jobs: outside tests;
 * tests call the functions).
 */
export function storeJobs(everyMs: number): JobDef[] {
  return [
    { name: "orders.close-unpaid", everyMs, run: (ctx) => closeExpiredOrders(ctx) },
    { name: "subscriptions.expire", everyMs, run: (ctx) => expireSubscriptions(ctx) },
  ];
}
