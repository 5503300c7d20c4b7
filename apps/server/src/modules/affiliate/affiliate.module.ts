import { WithdrawalStatus } from "@burrow/contract";
import type { ModuleManifest } from "../../shared/module";
import { affiliateRoutes } from "./affiliate.routes";
import { affiliateJobs, affiliateOrderHook } from "./affiliate.service";

/** Referral rebates (earned on paid orders, released by a job) and their withdrawals, which operators review. */
export const affiliateModule: ModuleManifest = {
  name: "affiliate",
  routes: affiliateRoutes,
  orderHooks: [affiliateOrderHook],
  jobs: () => affiliateJobs,
  waiting: [
    {
      key: "withdrawals",
      label: "待审核提现",
      path: "/withdrawal?status=2",
      count: (db) =>
        db
          .selectFrom("aff_withdrawals")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("status", "=", WithdrawalStatus.Processing),
    },
  ],
};
