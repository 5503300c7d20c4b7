// @vitest-environment jsdom
import {
  ErrorCode,
  MAX_WEBHOOK_ENDPOINTS,
  type WebhookDeliveryView,
  WebhooksApi,
  type WebhookView,
} from "@burrow/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiFailure, FakeApi, renderPage } from "@/testing/page-harness";
import { WebhooksPage } from "./WebhooksPage";

const hook = (o: Partial<WebhookView>): WebhookView => ({
  id: 1,
  url: "https://ops.example.com/burrow",
  description: "运维告警",
  events: ["tunnel.offline", "tunnel.online"],
  status: "active",
  paused_reason: null,
  paused_at: null,
  failure_streak: 0,
  pending: 0,
  created_at: "2026-11-28T02:00:00.000Z",
  ...o,
});
const active = hook({});
const failing = hook({
  id: 2,
  url: "https://billing.example.com/hook",
  description: "",
  events: ["order.paid"],
  status: "paused",
  paused_reason: "failures",
  paused_at: "2026-11-28T03:00:00.000Z",
  failure_streak: 8,
  pending: 3,
});
const delivery = (o: Partial<WebhookDeliveryView>): WebhookDeliveryView => ({
  id: 90,
  event_id: "evt_offline_1",
  event_type: "tunnel.offline",
  status: "success",
  attempts: 1,
  response_code: 200,
  response_excerpt: null,
  error: null,
  duration_ms: 35,
  next_at: null,
  last_attempt_at: "2026-11-28T02:10:00.000Z",
  created_at: "2026-11-28T02:10:00.000Z",
  redelivery_of: null,
  ...o,
});
/** Each endpoint's log: the first hook's one delivery, the failing hook's refused one. */
const logs: Record<string, WebhookDeliveryView[]> = {
  "1": [delivery({})],
  "2": [delivery({ id: 91, event_id: "evt_paid_7", event_type: "order.paid", status: "failed", response_code: 502 })],
};

function api(hooks: WebhookView[] = [active, failing]) {
  // read at each call: an endpoint added by the page is in the next list
  return new FakeApi()
    .on(WebhooksApi.getUserWebhook, () => [...hooks])
    .on(WebhooksApi.getUserWebhookIdDeliveries, (c) => {
      const list = logs[c.path.split("/")[4]] ?? [];
      return { list, total: list.length, page: 1, size: 10 };
    });
}

const show = (fake: FakeApi) => renderPage(<WebhooksPage />, fake, { path: "/account/webhooks" });
/** The table row of the endpoint with this address. */
const row = async (url: string) => (await screen.findByText(url)).closest("tr") as HTMLElement;
/** 添加地址, found by its text (a role query over a ten-row table is slow in jsdom). */
const addButton = () => screen.getByText("添加地址").closest("button") as HTMLButtonElement;
const press = (scope: HTMLElement, name: string) => fireEvent.click(within(scope).getByRole("button", { name }));
/** The open 删除 confirm (antd keeps a closed one in the document). */
const popconfirm = async () =>
  (await screen.findAllByText("删除此 Webhook？")).at(-1)?.closest(".ant-popover") as HTMLElement;
const deliveriesOf = (fake: FakeApi) => fake.callsTo(WebhooksApi.getUserWebhookIdDeliveries).map((c) => c.path);

describe("WebhooksPage", () => {
  it("lists each endpoint's events and state, warns of one paused by failures, and shows the chosen one's log", async () => {
    const fake = api();
    show(fake);
    const first = await row(active.url);
    expect(within(first).getByText("运维告警")).toBeTruthy();
    expect(within(first).getByText("隧道离线")).toBeTruthy();
    expect(within(first).getByText("隧道恢复上线")).toBeTruthy();
    expect(within(first).getByText("正常")).toBeTruthy();
    expect(within(first).getByRole("button", { name: "暂停" })).toBeTruthy();
    const second = await row(failing.url);
    expect(within(second).getByText("订单已支付")).toBeTruthy();
    expect(within(second).getByText("连续失败已暂停")).toBeTruthy();
    expect(within(second).getByText(/待投递 3/)).toBeTruthy();
    expect(within(second).getByRole("button", { name: "恢复" })).toBeTruthy();
    expect(screen.getByText("有 Webhook 因连续投递失败已自动暂停")).toBeTruthy();

    // The first endpoint's log opens with the page, named by its note.
    const log = await screen.findByTestId("webhook-deliveries");
    expect(within(log).getByText("投递记录：运维告警")).toBeTruthy();
    expect(await within(log).findByText("evt_offline_1")).toBeTruthy();
    expect(deliveriesOf(fake)).toEqual(["/api/user/webhook/1/deliveries"]);

    // 投递记录 on the second row: its log, named by its address (it has no note).
    press(second, "投递记录");
    expect(await screen.findByText(`投递记录：${failing.url}`)).toBeTruthy();
    expect(await screen.findByText("evt_paid_7")).toBeTruthy();
    expect(screen.queryByText("evt_offline_1")).toBeNull();
    expect(deliveriesOf(fake).at(-1)).toBe("/api/user/webhook/2/deliveries");
    expect(fake.unanswered).toEqual([]);
  });

  it("pauses an active endpoint and resumes a paused one with PATCH enabled, then reads the list again", async () => {
    const fake = api().on(WebhooksApi.patchUserWebhookId, (c) => ({ ...active, ...(c.body as object) }));
    show(fake);
    press(await row(active.url), "暂停");
    await waitFor(() => expect(fake.callsTo(WebhooksApi.patchUserWebhookId)).toHaveLength(1));
    expect(await screen.findByText("已暂停投递")).toBeTruthy();
    press(await row(failing.url), "恢复");
    await waitFor(() => expect(fake.callsTo(WebhooksApi.patchUserWebhookId)).toHaveLength(2));
    const [pause, resume] = fake.callsTo(WebhooksApi.patchUserWebhookId);
    expect([pause.path, pause.body]).toEqual(["/api/user/webhook/1", { enabled: false }]);
    expect([resume.path, resume.body]).toEqual(["/api/user/webhook/2", { enabled: true }]);
    await waitFor(() => expect(fake.callsTo(WebhooksApi.getUserWebhook).length).toBeGreaterThanOrEqual(3));
  });

  it("deletes an endpoint only after the confirm, and reports a test send that failed", async () => {
    const fake = api()
      .on(WebhooksApi.deleteUserWebhookId, null)
      .on(WebhooksApi.postUserWebhookIdTest, () =>
        delivery({ id: 95, event_type: "webhook.test", status: "failed", response_code: null, error: "连接被拒绝" }),
      );
    show(fake);
    press(await row(failing.url), "删除");
    const confirm = await popconfirm();
    expect(within(confirm).getByText("待投递的事件和投递记录将一并删除。")).toBeTruthy();
    press(confirm, "取消");
    expect(fake.callsTo(WebhooksApi.deleteUserWebhookId)).toHaveLength(0);

    press(await row(failing.url), "删除");
    const again = await popconfirm();
    press(again, "删除");
    await waitFor(() => expect(fake.callsTo(WebhooksApi.deleteUserWebhookId)).toHaveLength(1));
    expect(fake.callsTo(WebhooksApi.deleteUserWebhookId)[0].path).toBe("/api/user/webhook/2");
    expect(await screen.findByText("已删除")).toBeTruthy();

    press(await row(active.url), "测试发送");
    expect(await screen.findByText("测试事件发送失败：连接被拒绝")).toBeTruthy();
    expect(fake.callsTo(WebhooksApi.postUserWebhookIdTest).map((c) => c.path)).toEqual(["/api/user/webhook/1/test"]);
  });

  it("adds an endpoint: checks the address with the contract, shows the server's refusal, then the secret once", async () => {
    let refused = false;
    const hooks = [active];
    const fake = api(hooks).on(WebhooksApi.postUserWebhook, (c) => {
      const body = c.body as { url: string; description: string };
      if (!refused) {
        refused = true;
        throw new ApiFailure(400, ErrorCode.InvalidParams, "url: 地址不能指向内网", { field: "url" });
      }
      hooks.push(hook({ id: 3, ...body }));
      return { ...hook({ id: 3, ...body }), secret: "whsec_0123456789abcdef" };
    });
    show(fake);
    await row(active.url);
    fireEvent.click(addButton());
    const modal = (await screen.findByText("添加 Webhook")).closest(".ant-modal") as HTMLElement;
    const url = within(modal).getByLabelText("接收地址");
    fireEvent.change(url, { target: { value: "ftp://ops.example.com/x" } });
    press(modal, "添加");
    expect(await within(modal).findByText("地址须以 https:// 开头")).toBeTruthy();
    expect(fake.callsTo(WebhooksApi.postUserWebhook)).toHaveLength(0);

    fireEvent.change(url, { target: { value: "https://10.0.0.5/hook" } });
    fireEvent.change(within(modal).getByLabelText("备注"), { target: { value: "值班" } });
    press(modal, "添加");
    expect(await within(modal).findByText("地址不能指向内网")).toBeTruthy();
    expect(screen.queryByTestId("webhook-secret")).toBeNull();

    fireEvent.change(url, { target: { value: "https://hooks.example.com/in" } });
    press(modal, "添加");
    await waitFor(() => expect(fake.callsTo(WebhooksApi.postUserWebhook)).toHaveLength(2));
    // The events the form opens with, untouched.
    expect(fake.callsTo(WebhooksApi.postUserWebhook)[1].body).toEqual({
      url: "https://hooks.example.com/in",
      description: "值班",
      events: ["tunnel.offline", "tunnel.online"],
    });
    expect((await screen.findByTestId("webhook-secret")).textContent).toBe("whsec_0123456789abcdef");
    expect(screen.getByText("签名密钥只显示这一次")).toBeTruthy();
    // The list is read again and the new endpoint is the one whose log is shown.
    expect(await screen.findByText("https://hooks.example.com/in")).toBeTruthy();
    await waitFor(() => expect(deliveriesOf(fake).at(-1)).toBe("/api/user/webhook/3/deliveries"));
  });

  it(`offers no 添加地址 at ${MAX_WEBHOOK_ENDPOINTS} endpoints`, async () => {
    const full = Array.from({ length: MAX_WEBHOOK_ENDPOINTS }, (_, i) =>
      hook({ id: i + 1, url: `https://h${i}.example.com/` }),
    );
    show(api(full));
    await row("https://h9.example.com/");
    expect(addButton().disabled).toBe(true);
  });

  it("shows an empty list with 添加地址 enabled and no log", async () => {
    const fake = api([]);
    show(fake);
    expect(await screen.findByText("还没有 Webhook 地址")).toBeTruthy();
    expect(addButton().disabled).toBe(false);
    expect(screen.queryByTestId("webhook-deliveries")).toBeNull();
    expect(fake.callsTo(WebhooksApi.getUserWebhookIdDeliveries)).toHaveLength(0);
  });
});
