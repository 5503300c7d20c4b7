import { ProcessStatus } from "@burrow/contract";
import type { ModuleManifest } from "../../shared/module";
import { reviewsInFlight } from "./submissions";
import { verificationsWith } from "./verify.repository";
import { verifyRoutes } from "./verify.routes";
import { verifyJobs } from "./verify.service";

/** Identity verification: through the provider or an operator's review of the submitted ID. */
export const verifyModule: ModuleManifest = {
  name: "verify",
  state: [reviewsInFlight],
  routes: verifyRoutes,
  jobs: () => verifyJobs,
  waiting: [
    {
      key: "verifications",
      label: "待审核实名认证",
      path: "/verify/list",
      count: (db) => verificationsWith(db, ProcessStatus.Processing),
    },
  ],
  verifiedUsers: (db) => verificationsWith(db, ProcessStatus.Done),
};
