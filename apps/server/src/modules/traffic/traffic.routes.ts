import { TrafficApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { getUserTunnel } from "../tunnels/tunnels.service";
import { connOverview, listConns } from "./conns";
import { flow } from "./flow";
import { tunnelTrafficChart, userTraffic, userTrafficRows } from "./traffic.service";

/** Traffic and visitor connections: a customer's tunnels and totals, the operators' conns and flow. */
export function trafficRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, TrafficApi.getUserTunTunidTraffic, ({ params, query, user }) =>
    tunnelTrafficChart(ctx, user.uid, params.tunid, query.days),
  );
  defineRoute(app, ctx, TrafficApi.getUserTunTunidConns, async ({ params, query, user }) => {
    await getUserTunnel(ctx, user.uid, params.tunid);
    return listConns(ctx, { ...query, tun_id: params.tunid, uid: user.uid });
  });
  defineRoute(app, ctx, TrafficApi.getUserTraffic, ({ query, user }) => userTraffic(ctx, user.uid, query));
  defineRoute(app, ctx, TrafficApi.getUserTrafficRows, ({ query, user }) => userTrafficRows(ctx, user.uid, query));
  defineRoute(app, ctx, TrafficApi.getSuperTunConns, ({ query }) => connOverview(ctx, query));
  defineRoute(app, ctx, TrafficApi.getSuperFlow, ({ query }) => flow(ctx, query));
}
