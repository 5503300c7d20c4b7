import { AffiliateApi, WithdrawalStatus } from "@burrow/contract";
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { defineRoute } from "../../http/route";
import { registerWaitingCounter } from "../../shared/overview-counters";
import { affSetting, updateAffSetting } from "./affiliate.service";
import { affSummary, listRebates } from "./stats";
import { adminDecideWithdrawal, adminListWithdrawals } from "./withdrawal-review";
import { listMyWithdrawals, withdraw } from "./withdrawals";

export function affiliateRoutes(api: FastifyInstance, ctx: AppContext): void {
  const awaiting = (db: AppContext["db"]) =>
    db
      .selectFrom("aff_withdrawals")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "=", WithdrawalStatus.Processing);
  registerWaitingCounter({ key: "withdrawals", label: "待审核提现", path: "/withdrawal?status=2", count: awaiting });
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
