import type { ModuleManifest } from "../../shared/module";
import { ticketJobs } from "./jobs";
import { ticketsRoutes } from "./tickets.routes";
import { ticketsAwaitingStaff } from "./tickets.service";

/** Support tickets and tunnel appeals, which staff answer. */
export const ticketsModule: ModuleManifest = {
  name: "tickets",
  routes: ticketsRoutes,
  jobs: () => ticketJobs,
  waiting: [{ key: "tickets", label: "待回复工单", path: "/mgr/ticket", count: ticketsAwaitingStaff }],
};
