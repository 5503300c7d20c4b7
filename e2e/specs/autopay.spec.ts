import { OrdersApi, UsermgrApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { chooseOption } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { createPlanApi, levelId, uniqueTitle } from "../fixtures/store";

test("automatic purchases: auto-renewal on, a top-up rule that buys at once, the automatic order in 我的订单", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const admin = await adminToken();
  // A plan without traffic: nothing is left, so the top-up rule is due as soon as it is saved.
  const planName = uniqueTitle("E2E自动");
  const packName = uniqueTitle("E2E流量包");
  const plan = await createPlanApi(admin, { name: planName, traffic: 0, monthly_fee: 1000 });
  await createPlanApi(admin, {
    name: packName,
    type: 3,
    level_id: await levelId(admin, 1),
    traffic: 10,
    monthly_fee: 300,
  });
  const user = await registerUser();
  await call(UsermgrApi.patchSuperUserInfo, {
    token: admin,
    body: { uid: user.uid, balance_change: 5000, balance_reason: "e2e 自动购买" },
  });
  await call(OrdersApi.postUserOrder, {
    token: user.token,
    body: { type: 2, plan_id: plan.id, period: "monthly", pay_method: 1 },
  });

  await openSignedIn(page, user.token, "/epay/plan");
  await page.getByRole("switch", { name: `自动续费 ${planName}` }).click();
  await expect(page.getByText("已开启自动续费：到期前一天从余额续费")).toBeVisible();
  await expect(page.getByRole("switch", { name: `自动续费 ${planName}` })).toBeChecked();

  const rule = page.getByRole("form", { name: "自动购买流量包规则" });
  await chooseOption(page, rule.getByLabel("流量包"), packName);
  await chooseOption(page, rule.getByLabel("周期"), "月付 3.00 元");
  await rule.getByLabel("每月上限（元）").fill("10");
  await rule.getByRole("button", { name: "保存规则" }).click();
  await expect(page.getByText("自动购买规则已保存")).toBeVisible();
  await expect(page.getByLabel("本月自动购买")).toContainText("已自动购买 3.00 元");
  await expect(page.getByRole("row", { name: new RegExp(packName) })).toBeVisible();

  await sider(page).getByRole("menuitem", { name: "我的订单" }).click();
  await expect(page).toHaveURL(/\/epay\/order/);
  const order = page.getByText(`购买流量包「${packName}」月付`);
  await expect(order).toBeVisible();
  await expect(page.getByText("自动", { exact: true })).toBeVisible();
});
