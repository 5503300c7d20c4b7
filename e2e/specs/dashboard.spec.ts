import { DashboardApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";

test("the dashboard shows the plan and a once-a-day check-in that adds traffic", async ({ page }) => {
  const user = await registerUser();
  const before = await call(DashboardApi.getUserDashData, { token: user.token });
  await openSignedIn(page, user.token, "/dashboard");

  await expect(page.getByText("当前套餐", { exact: true })).toBeVisible();
  await expect(page.getByText(before.plan?.name ?? "")).toBeVisible();
  await expect(page.getByRole("img", { name: "近 7 天流量趋势" })).toBeVisible();

  await page.getByRole("button", { name: "每日签到" }).click();
  await expect(page.getByText(/签到成功，获得 .+ 流量，已连续签到 1 天/)).toBeVisible();
  await expect(page.getByRole("button", { name: "今日已签到" })).toBeDisabled();

  const after = await call(DashboardApi.getUserDashData, { token: user.token });
  expect(after.checkin.today).toBe(true);
  expect(after.plan?.traffic_quota).toBeGreaterThan(before.plan?.traffic_quota ?? 0);
});
