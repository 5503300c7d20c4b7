import { SetupChecklistAnswer, ViewInfoAnswer } from "../answers/overview";
import { endpoint } from "../endpoint";
import { type SetupChecklist, SetupDismissBody, type ViewInfo } from "../users";

/** The overview endpoints: the operator's figures and waiting queues, the set-up checklist (see endpoint.ts). */
export const OverviewApi = {
  getSuperViewInfo: endpoint<ViewInfo>()({
    method: "GET",
    url: "/super/viewInfo",
    access: "staff",
    answer: ViewInfoAnswer,
    summary: "the operator's overview: users, tunnels, nodes, traffic, revenue, waiting work, 30 days of figures",
  }),
  getSuperSetup: endpoint<SetupChecklist>()({
    method: "GET",
    url: "/super/setup",
    access: "manager",
    answer: SetupChecklistAnswer,
    summary: "the set-up checklist of a fresh install, each line computed from the configuration and the database",
  }),
  postSuperSetup: endpoint<SetupChecklist>()({
    method: "POST",
    url: "/super/setup",
    access: "manager",
    answer: SetupChecklistAnswer,
    summary: "hides (or shows again) the set-up checklist before it is done",
    body: SetupDismissBody,
  }),
} as const;
