import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";

// Customer webhooks (issue 34 §3) through the real UI: an endpoint added in the menu's Webhook page
// pointing at a receiver this test runs on 127.0.0.1 (the e2e server sets WEBHOOK_ALLOW_LOOPBACK),
// the secret shown once, a test send the receiver gets signed with it, and its row in the log.

test("a customer adds a webhook, sends a test event and sees it delivered in the log", async ({ page }) => {
  // A lazy page and two round trips to the receiver: 30-45 s on a loaded machine, past the 45 s default.
  test.setTimeout(90_000);
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.end("received");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/burrow`;
  try {
    const user = await registerUser();
    await openSignedIn(page, user.token, "/dashboard");
    await sider(page).getByRole("menuitem", { name: "Webhook" }).click();
    await expect(page).toHaveURL(/\/account\/webhooks$/);

    await page.getByRole("button", { name: "添加地址" }).click();
    const form = page.getByRole("dialog", { name: "添加 Webhook" });
    await form.getByLabel("接收地址").fill(url);
    await form.getByLabel("备注").fill("运维告警");
    await form.getByRole("checkbox", { name: /订单已支付/ }).check();
    await form.getByRole("button", { name: "添加" }).click();

    const shown = page.getByRole("dialog", { name: "Webhook 已添加" });
    await expect(shown).toContainText("签名密钥只显示这一次");
    const secret = (await shown.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole("button", { name: "我已保存" }).click();

    const row = page.getByRole("row").filter({ hasText: url });
    await expect(row.getByText("正常")).toBeVisible();
    await row.getByRole("button", { name: "测试发送" }).click();
    await expect(page.getByText("测试事件已送达（HTTP 200）")).toBeVisible();

    const log = page.getByTestId("webhook-deliveries");
    await expect(log.getByText("测试事件")).toBeVisible();
    await expect(log.getByText("成功")).toBeVisible();
    await expect(log.getByText(/HTTP 200/)).toBeVisible();

    expect(received).toHaveLength(1);
    const [r] = received;
    const ts = String(r.headers["x-burrow-timestamp"]);
    const expected = createHmac("sha256", secret).update(`${ts}.${r.body}`).digest("hex");
    expect(r.headers["x-burrow-signature"]).toBe(`v1=${expected}`);
    expect(JSON.parse(r.body)).toMatchObject({ type: "webhook.test" });
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});
