import { readFileSync } from "node:fs";
import path from "node:path";
import { NoticesApi, OutboxApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, registerUser } from "../fixtures/api";
import { openSignedIn, sider } from "../fixtures/browser";
import { SERVER_STATE } from "../fixtures/env";

const GB = 1024 ** 3;

/**
 * Issue 31 §3: a delivery the handler gave up on (the traffic notice, dead after its attempts) is
 * listed on 事件投递 with its error and attempts; a Manager's 重试 runs the real handler again,
 * and the customer finds the notice in their notification centre.
 */
test("事件投递: a dead delivery is listed with its error and a retry delivers it", async ({ page }) => {
  // Two consoles, a retry and a handler run: more than the default on a loaded machine.
  test.setTimeout(120_000);
  const customer = await registerUser();
  const { dataDir } = JSON.parse(readFileSync(SERVER_STATE, "utf8")) as { dataDir: string };
  // The state a failing handler leaves: the event recorded, its delivery dead after 6 attempts.
  const db = new Database(path.join(dataDir, "burrow.sqlite"));
  const error = `e2e: notice store unavailable ${Date.now()}`;
  let deliveryId: number;
  try {
    const now = new Date().toISOString();
    const payload = { uid: customer.uid, subscription_id: 0, period_end: null, used: 85 * GB, quota: 100 * GB };
    const event = db
      .prepare(
        "insert into outbox_events (type, payload, uid, dedupe_key, created_at, fanned_out) values ('quota.80', ?, ?, null, ?, 1)",
      )
      .run(JSON.stringify(payload), customer.uid, now);
    const delivery = db
      .prepare(
        "insert into outbox_deliveries (event_id, handler, status, attempts, next_at, holder, lease_until, last_error, updated_at) values (?, 'notices.deliver', 'dead', 6, ?, null, null, ?, ?)",
      )
      .run(event.lastInsertRowid, now, error, now);
    deliveryId = Number(delivery.lastInsertRowid);
  } finally {
    db.close();
  }

  const token = await adminToken();
  await page.setViewportSize({ width: 1366, height: 768 });
  await openSignedIn(page, token, "/admin/view");
  await sider(page).getByRole("menuitem", { name: "事件投递" }).click();
  await expect(page).toHaveURL(/\/admin\/outbox/);
  const row = page.getByRole("row").filter({ hasText: `用户 ${customer.uid}` });
  // The page and its list load lazily; on a loaded machine that takes a while.
  await expect(row).toContainText(error, { timeout: 30_000 });
  await expect(row).toContainText("流量已用 80%");
  await expect(row).toContainText("notices.deliver");
  await expect(row).toContainText("已放弃");
  await expect(row).toContainText("6");

  await row.getByRole("button", { name: "重试" }).click();
  await confirmPopover(page, "重试");
  await expect(page.getByText("已重新投递")).toBeVisible();
  // No longer dead: the dispatcher woke on the retry's commit and the handler ran.
  await expect(row).toHaveCount(0);
  await expect
    .poll(async () =>
      (await call(NoticesApi.getUserNotice, { token: customer.token, query: {} })).list.map((n) => n.title),
    )
    .toContain("流量提醒：本期流量已用 80%");

  // Done, with a single attempt of its own; the dead list no longer has it.
  const done = await call(OutboxApi.getSuperOutboxDeliveries, { token, query: { status: "done" } });
  expect(done.list).toContainEqual(expect.objectContaining({ id: deliveryId!, status: "done", attempts: 1 }));
  const dead = await call(OutboxApi.getSuperOutboxDeliveries, { token, query: { status: "dead" } });
  expect(dead.list.map((d) => d.id)).not.toContain(deliveryId!);

  // On a phone the list still shows the dead letters' status and error.
  await page.setViewportSize({ width: 390, height: 844 });
  await openSignedIn(page, token, "/admin/outbox");
  await expect(page.getByRole("heading", { name: "事件投递" })).toBeVisible({ timeout: 30_000 });
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(over).toBeLessThanOrEqual(0);
});
