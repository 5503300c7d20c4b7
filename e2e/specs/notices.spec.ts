import { NoticesApi, TicketsApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";

/**
 * Issue 34 §3: a staff reply to the customer's ticket becomes a notice (recorded with the reply,
 * delivered after the commit by the outbox): the top bar's bell counts it, 消息通知 lists it, and
 * marking it read clears the bell. 通知设置 shows the e-mail channel off (no SMTP here) with why.
 */
test("消息通知: a ticket reply rings the bell, is listed, and is marked read", async ({ page }) => {
  test.setTimeout(90_000);
  const customer = await registerUser();
  const title = `通知测试工单 ${Date.now()}`;
  const ticket = await call(TicketsApi.postUserTicket, {
    token: customer.token,
    body: { title, category: "other", content: "frpc 连不上" },
  });
  await call(TicketsApi.postSuperTicketReply, {
    token: await adminToken(),
    params: { ticket_id: ticket.ticket_id },
    body: { content: "请检查 server_addr 配置" },
  });

  // Delivered after the commit by the e2e server's dispatcher (woken by the commit).
  await expect.poll(async () => (await call(NoticesApi.getUserNoticeUnread, { token: customer.token })).count).toBe(1);

  await openSignedIn(page, customer.token, "/dashboard");
  const bell = page.getByRole("banner").getByRole("link", { name: /^消息通知/ });
  // A cold console under load takes a while to draw its shell.
  await expect(bell).toHaveAccessibleName("消息通知，1 条未读", { timeout: 30_000 });

  await bell.click();
  await expect(page).toHaveURL(/\/notices$/);
  const item = page.getByRole("listitem").filter({ hasText: title });
  await expect(item).toContainText(`工单有新回复：${title}`, { timeout: 30_000 });
  await expect(item).toContainText("客服回复了您的工单");
  await item.getByRole("button", { name: "标为已读" }).click();
  await expect(item.getByRole("button", { name: "标为已读" })).toHaveCount(0);
  await expect(bell).toHaveAccessibleName("消息通知");

  await page.getByRole("tab", { name: "通知设置" }).click();
  await expect(page.getByText("邮件通知不可用")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "工单有新回复：站内" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "工单有新回复：短信" })).toBeDisabled();
});
