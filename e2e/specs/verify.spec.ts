import { idCheckDigit, VerifyApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { watchCsp } from "../fixtures/csp";

/** A valid resident ID number, unique within the run (random sequence code). */
function idNumber(): string {
  const first17 = `110101${1970 + Math.floor(Math.random() * 40)}0615${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}`;
  return `${first17}${idCheckDigit(first17)}`;
}
const masked = (id: string) => `1101**********${id.slice(-4)}`;

test("a customer verifies: a wrong check digit is named, then the result page shows it done, masked", async ({
  page,
}) => {
  const user = await registerUser();
  const csp = await watchCsp(page);
  await openSignedIn(page, user.token, "/account/verify");
  await expect(page.getByRole("heading", { name: "实名认证" })).toBeVisible();

  const id = idNumber();
  const wrong = `${id.slice(0, 17)}${id[17] === "0" ? "1" : "0"}`;
  await page.getByLabel("真实姓名").fill("张三");
  await page.getByLabel("身份证号码").fill(wrong);
  await page.getByRole("button", { name: "提交认证" }).click();
  await expect(page.getByText("身份证号码校验位不正确")).toBeVisible();

  await page.getByLabel("身份证号码").fill(id);
  await page.getByRole("button", { name: "提交认证" }).click();
  await expect(page).toHaveURL(/\/account\/verify\/done$/);
  await expect(page.getByText("实名认证已完成")).toBeVisible();
  await expect(page.getByText(masked(id))).toBeVisible();
  await expect(page.locator("body")).not.toContainText(id);

  // Back on the form page: the state card, no form.
  await page.getByRole("link", { name: "返回实名认证" }).click();
  await expect(page.getByText("已完成")).toBeVisible();
  await expect(page.getByRole("button", { name: "提交认证" })).toHaveCount(0);
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});

test("a rejected verification shows its reason and can be submitted again", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/account/verify");
  await page.getByLabel("真实姓名").fill("拒绝测试");
  await page.getByLabel("身份证号码").fill(idNumber());
  await page.getByRole("button", { name: "提交认证" }).click();
  await expect(page).toHaveURL(/\/account\/verify\/rejected$/);
  await expect(page.getByText("实名认证未通过")).toBeVisible();
  await expect(page.getByText(/原因：.*不一致/)).toBeVisible();
  await page.getByRole("link", { name: "重新提交" }).click();
  await expect(page.getByRole("button", { name: "提交认证" })).toBeVisible();
});

test("an operator sees a customer's verification on the user detail and resets it", async ({ page }) => {
  const user = await registerUser();
  const id = idNumber();
  const done = await call(VerifyApi.postUserVerify, {
    token: user.token,
    body: { real_name: "王小明", id_number: id },
  });
  expect(done.status).toBe(1);

  const csp = await watchCsp(page);
  await openSignedIn(page, await adminToken(), `/admin/usermgr/list/${user.uid}`);
  const card = page.locator(".ant-card").filter({ has: page.getByText("实名认证", { exact: true }) });
  await expect(card.getByText("已完成")).toBeVisible();
  await expect(card.getByText("王**")).toBeVisible();
  await expect(card.getByText(masked(id))).toBeVisible();
  await expect(page.locator("body")).not.toContainText(id);

  await card.getByRole("button", { name: "重置" }).click();
  await confirmPopover(page, "重置");
  await expect(page.getByText("实名认证已更新")).toBeVisible();
  await expect(card.getByText("未提交")).toBeVisible();
  expect((await call(VerifyApi.getUserVerify, { token: user.token })).status).toBe(0);
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});

test("while the operator requires verification, the tunnel form points an unverified customer to /account/verify", async ({
  page,
}) => {
  const admin = await adminToken();
  await call(VerifyApi.patchSuperVerifySetting, { token: admin, body: { required_for_tunnels: true } });
  try {
    const user = await registerUser();
    await openSignedIn(page, user.token, "/tun/list/add");
    await expect(page.getByText("请先完成实名认证")).toBeVisible();
    await page.getByRole("link", { name: "前往实名认证" }).click();
    await expect(page).toHaveURL(/\/account\/verify$/);
    await expect(page.getByText("完成实名认证后才能创建隧道。")).toBeVisible();
  } finally {
    await call(VerifyApi.patchSuperVerifySetting, { token: admin, body: { required_for_tunnels: false } });
  }
});
