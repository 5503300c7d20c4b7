import { TicketsApi, TunnelsApi, UsermgrApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { chooseOption, confirmPopover } from "../fixtures/antd";
import { adminToken, call, login, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { createTunnelApi, localNode, uniqueName } from "../fixtures/catalog";
import { BASE_URL } from "../fixtures/env";

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100" +
    "05fe02fea72d7d0000000049454e44ae426082",
  "hex",
);

/** POST /user/ticket/attachment as the page would (multipart), for a customer's earlier uploads. */
async function uploadApi(token: string): Promise<void> {
  const form = new FormData();
  form.append("file", new Blob([PNG], { type: "image/png" }), "earlier.png");
  const res = await fetch(new URL("/api/user/ticket/attachment", BASE_URL), {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(((await res.json()) as { code: unknown }).code).toBe("SUCCESS");
}

/** A support staff member (role 2): they work the ticket queue. */
async function supportToken(): Promise<string> {
  const admin = await adminToken();
  const s = await registerUser();
  await call(UsermgrApi.patchSuperUserInfo, { token: admin, body: { uid: s.uid, role: 2 } });
  return login(s.phone, s.password);
}

test("a customer opens a ticket with an image, staff reply, the customer sees the badge and replies, staff end it", async ({
  page,
}) => {
  // Two people's turns through a whole ticket (about 35-45 s alone): more than the default 45 s under load.
  test.setTimeout(90_000);
  const user = await registerUser();
  const title = uniqueName("连不上-");

  // The customer opens a ticket from the menu, with one image.
  await openSignedIn(page, user.token, "/dashboard");
  await sider(page).getByRole("menuitem", { name: "工单" }).click();
  await expect(page).toHaveURL(/\/help\/ticket$/);
  await page.getByRole("button", { name: "新建工单" }).click();
  const dialog = page.getByRole("dialog", { name: "新建工单" });
  await dialog.getByLabel("标题").fill(title);
  await chooseOption(page, dialog.getByLabel("分类"), "隧道问题");
  await dialog.getByLabel("内容").fill("frpc 报错 login to server failed: i/o timeout");
  await dialog.locator('input[type="file"]').setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: PNG });
  await expect(
    dialog.locator(".ant-upload-list-item-done, .ant-upload-list-item:not(.ant-upload-list-item-uploading)"),
  ).toHaveCount(1);
  await dialog.getByRole("button", { name: "提交" }).click();
  await expect(page.getByText("工单已提交")).toBeVisible();
  await expect(page).toHaveURL(/\/help\/ticket\/\d+$/);
  const ticketId = Number(page.url().split("/").pop());
  await expect(page.getByRole("heading", { name: `工单 #${ticketId} · ${title}` })).toBeVisible();
  await expect(page.getByText("待管理员回复")).toBeVisible();
  // The image is shown from the authenticated call.
  await expect(page.getByRole("img", { name: /^附件 \d+$/ })).toBeVisible();

  // Support staff find it in the queue (status 2 reads 待回复 to them) and ask for more.
  const support = await supportToken();
  await openSignedIn(page, support, "/admin/mgr/ticket?status=2");
  const row = page.getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText("待回复");
  await expect(row).toContainText(user.phone);
  await row.getByRole("link", { name: "处理" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/mgr/ticket/${ticketId}$`));
  await expect(page.getByText("当前套餐")).toBeVisible();
  await expect(page.getByRole("img", { name: /^附件 \d+$/ })).toBeVisible();
  await page.getByLabel("内容").fill("请提供 frpc 的完整日志");
  await page.getByRole("button", { name: "回复并请用户补充" }).click();
  await expect(page.getByText("已回复")).toBeVisible();
  await expect(page.getByText("待用户补充").first()).toBeVisible();

  // The customer sees the unread reply on the dashboard and in the menu badge, reads it and replies.
  await openSignedIn(page, user.token, "/dashboard");
  await expect(page.getByText("你有 1 条未读的工单回复")).toBeVisible();
  const item = sider(page).getByRole("menuitem", { name: /工单/ });
  await expect(item.locator(".ant-badge")).toContainText("1");
  await item.click();
  await page.getByRole("link", { name: title }).click();
  await expect(page.getByText("请提供 frpc 的完整日志")).toBeVisible();
  await expect(page.getByText("客服请你补充信息")).toBeVisible();
  await expect(item.locator(".ant-badge")).toHaveCount(0);
  await page.getByLabel("内容").fill("日志：dial tcp 127.0.0.1:7000: connection refused");
  await page.getByRole("button", { name: "发送回复" }).click();
  await expect(page.getByText("已回复")).toBeVisible();
  await expect(page.getByText("待管理员回复")).toBeVisible();

  // Staff end it; the customer can no longer reply.
  await openSignedIn(page, support, `/admin/mgr/ticket/${ticketId}`);
  await expect(page.getByText("connection refused")).toBeVisible();
  await page.getByRole("button", { name: "结束工单" }).click();
  await confirmPopover(page, "结束");
  await expect(page.getByText("工单已结束").first()).toBeVisible();
  const t = await call(TicketsApi.getUserTicketDetail, { token: user.token, params: { ticket_id: ticketId } });
  expect(t.status).toBe(1);
  expect(t.messages.map((m) => m.staff)).toEqual([false, true, false]);
  await openSignedIn(page, user.token, `/help/ticket/${ticketId}`);
  await expect(page.getByText("已结束").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "发送回复" })).toHaveCount(0);
});

test("the owner of a locked tunnel appeals from the tunnel page and staff unlock it from the ticket", async ({
  page,
}) => {
  const admin = await adminToken();
  const user = await registerUser();
  const node = await localNode(user.token);
  const name = uniqueName("appeal-");
  const tunnel = await createTunnelApi(user.token, node.node_id, name);
  await call(TunnelsApi.patchSuperTun, {
    token: admin,
    body: { tun_id: tunnel.tun_id, status: 3, banned_reason: "疑似钓鱼" },
  });

  await openSignedIn(page, user.token, `/tun/list/${tunnel.tun_id}`);
  await expect(page.getByText("隧道已锁定")).toBeVisible();
  // the lock's alert offers it (连接诊断's lock row offers one too)
  await page.getByRole("alert").getByRole("link", { name: "申诉" }).click();
  const dialog = page.getByRole("dialog", { name: "新建工单" });
  await expect(dialog.getByLabel("被锁定的隧道 ID")).toHaveValue(String(tunnel.tun_id));
  await dialog.getByLabel("内容").fill("这是我自己的 NAS 管理页，不是钓鱼网站");
  await dialog.getByRole("button", { name: "提交" }).click();
  await expect(page).toHaveURL(/\/help\/ticket\/\d+$/);
  const ticketId = Number(page.url().split("/").pop());
  // The ticket's tag, on the page: the closing modal (outside #root) still shows the same words in its select.
  await expect(page.locator("#root").getByText("封禁申诉", { exact: true })).toBeVisible();

  const support = await supportToken();
  await openSignedIn(page, support, `/admin/mgr/ticket/${ticketId}`);
  await expect(page.getByText("申诉的隧道")).toBeVisible();
  await expect(page.getByText("疑似钓鱼").first()).toBeVisible();
  await page.getByRole("button", { name: "解锁隧道" }).click();
  await confirmPopover(page, "解锁");
  await expect(page.getByText("隧道已解锁")).toBeVisible();
  await expect(page.getByRole("button", { name: "解锁隧道" })).toHaveCount(0);

  const after = await call(TunnelsApi.getUserTunTunid, { token: user.token, params: { tunid: tunnel.tun_id } });
  expect(after.status).toBe(2);
  const t = await call(TicketsApi.getUserTicketDetail, { token: user.token, params: { ticket_id: ticketId } });
  expect(t.status).toBe(1);
});

test("an image the server refuses shows the customer why (here: ten images uploaded and never sent)", async ({
  page,
}) => {
  const user = await registerUser();
  for (let i = 0; i < 10; i++) await uploadApi(user.token);
  await openSignedIn(page, user.token, "/help/ticket");
  await page.getByRole("button", { name: "新建工单" }).click();
  const dialog = page.getByRole("dialog", { name: "新建工单" });
  await dialog.locator('input[type="file"]').setInputFiles({ name: "shot.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByText("未提交的图片过多（最多 10 张），请先提交工单或稍后再试")).toBeVisible();
  await expect(dialog.locator(".ant-upload-list-item-error")).toHaveCount(1);
});
