import { AffiliateApi } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { affSetting, updateAffSetting } from "./affiliate.service";
import { affSummary, listRebates } from "./stats";
import { adminDecideWithdrawal, adminListWithdrawals } from "./withdrawal-review";
import { listMyWithdrawals, withdraw } from "./withdrawals";

export function affiliateRoutes(api: FastifyInstance, ctx: AppContext): void {
  defineRoute(api, ctx, AffiliateApi.getUserAff, ({ user }) => affSummary(ctx, user.uid));
  defineRoute(api, ctx, AffiliateApi.getUserAffRebate, ({ user, query }) => listRebates(ctx, user.uid, query));
  defineRoute(api, ctx, AffiliateApi.getUserAffWithdraw, ({ user, query }) => listMyWithdrawals(ctx, user.uid, query));
  defineRoute(api, ctx, AffiliateApi.postUserAffWithdraw, ({ user, body }) => withdraw(ctx, user.uid, body));
  defineRoute(api, ctx, AffiliateApi.getSuperAffList, ({ query }) => adminListWithdrawals(ctx, query));
  defineRoute(api, ctx, AffiliateApi.postSuperAffApprove, ({ operator, body }) =>
    adminDecideWithdrawal(ctx, operator, body),
  );
  defineRoute(api, ctx, AffiliateApi.getSuperAffSetting, () => affSetting(ctx.db));
  defineRoute(api, ctx, AffiliateApi.patchSuperAffSetting, ({ operator, body }) =>
    updateAffSetting(ctx, operator, body),
  );
}
