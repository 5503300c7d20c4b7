import { DashboardApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const dashboardKeys = {
  all: ["dashboard"] as const,
  data: () => [...dashboardKeys.all, "data"] as const,
  chart: () => [...dashboardKeys.all, "chart"] as const,
};

/** GET /user/dashData: balance, plan and quota, tunnels, today's traffic, check-in state. */
export const dashDataQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.data(),
    queryFn: ({ signal }) => api.call(DashboardApi.getUserDashData, {}, { signal }),
  });

/** GET /user/dashChart: this customer's traffic of the last seven days. */
export const dashChartQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.chart(),
    queryFn: ({ signal }) => api.call(DashboardApi.getUserDashChart, {}, { signal }),
  });

/** GET /user/checkIn (SPEC §7): once a day, adds bonus traffic to the plan. */
export const checkIn = () => api.call(DashboardApi.getUserCheckIn);
