import { CheckInResultAnswer, DashChartAnswer, DashDataAnswer } from "../answers/dashboard";
import type { CheckInResult, DashChart, DashData } from "../dashboard";
import { endpoint } from "../endpoint";

/** The dashboard endpoints (see endpoint.ts). */
export const DashboardApi = {
  getUserDashData: endpoint<DashData>()({
    method: "GET",
    url: "/user/dashData",
    access: "user",
    answer: DashDataAnswer,
    summary: "balance, plan and quota, tunnels, today's traffic, check-in state",
  }),
  getUserDashChart: endpoint<DashChart>()({
    method: "GET",
    url: "/user/dashChart",
    access: "user",
    answer: DashChartAnswer,
    summary: "this customer's traffic of the last seven days",
  }),
  getUserCheckIn: endpoint<CheckInResult>()({
    method: "GET",
    url: "/user/checkIn",
    access: "user",
    answer: CheckInResultAnswer,
    summary: "once a day, adds bonus traffic to the plan",
  }),
} as const;
