// @vitest-environment jsdom
import {
  AssistantApi,
  type AssistantConversationDetail,
  type AssistantMessage,
  ErrorCode,
  explainFrpcLog,
  TunnelsApi,
} from "@burrow/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiFailure, eventStream, FakeApi, renderPage } from "@/testing/page-harness";
import { AssistantPage } from "./AssistantPage";

const LOG = "2026-11-28 10:00:00 [W] [proxy] [t_9] start error: 账号已被封禁";
const at = "2026-11-28T02:00:00.000Z";
const ask = (text: string) => {
  fireEvent.change(screen.getByLabelText("提问"), { target: { value: text } });
  fireEvent.click(screen.getByText(/^(发送|解读日志)$/).closest("button") as HTMLElement);
};

describe("AssistantPage", () => {
  it("without an AI endpoint reads a pasted log offline, and lists no empty conversations beside it", async () => {
    const fake = new FakeApi()
      .on(AssistantApi.getUserAssistantStatus, { configured: false, daily_limit: 0, used_today: 0 })
      .on(AssistantApi.getUserAssistantConversation, [])
      .on(AssistantApi.postUserAssistantExplain, (c) => explainFrpcLog((c.body as { text: string }).text))
      .on(TunnelsApi.getUserTunTunid, { tun_id: 9, tun_name: "家里的 NAS" });
    renderPage(<AssistantPage />, fake, { path: "/aipage" });
    expect(await screen.findByText("AI 助手未配置")).toBeTruthy();
    ask(LOG);
    // The offline table's reading, with the way out it names: the tunnel by its name, not t_9.
    expect(await screen.findByText("账号已被封禁")).toBeTruthy();
    expect(await screen.findByText("去处理：隧道「家里的 NAS」")).toBeTruthy();
    expect(fake.callsTo(AssistantApi.postUserAssistantExplain)[0].body).toEqual({ text: LOG });
    expect(screen.queryByText("还没有对话")).toBeNull();
    ask("随便说点什么");
    expect(await screen.findByText(/没有识别出 frpc 错误/)).toBeTruthy();
    expect(fake.unanswered).toEqual([]);
  });

  it("streams an answer into a new conversation, then shows the stored one; a refusal before it starts gives the question back", async () => {
    const conversation = { id: 5, title: "开机启动", created_at: at, updated_at: at };
    const question: AssistantMessage = {
      id: 1,
      role: "user",
      content: "怎么开机启动？",
      explanations: [],
      created_at: at,
    };
    const answer: AssistantMessage = {
      id: 2,
      role: "assistant",
      content: "用 systemd。",
      explanations: [],
      created_at: at,
    };
    const stored: AssistantConversationDetail = { ...conversation, messages: [question, answer] };
    let listed: (typeof conversation)[] = [];
    let refuse = false;
    const fake = new FakeApi()
      .on(AssistantApi.getUserAssistantStatus, { configured: true, daily_limit: 20, used_today: 3 })
      .on(AssistantApi.getUserAssistantConversation, () => listed)
      .on(AssistantApi.getUserAssistantConversationDetail, stored)
      .on(AssistantApi.postUserAssistantChat, () => {
        if (refuse) throw new ApiFailure(429, ErrorCode.RateLimited, "今天的提问次数已用完");
        listed = [conversation];
        return eventStream([
          { type: "start", conversation, question },
          { type: "delta", text: "用 " },
          { type: "delta", text: "systemd。" },
          { type: "done", answer },
        ]);
      });
    renderPage(<AssistantPage />, fake, { path: "/aipage" });
    expect(await screen.findByText("今日剩余 17 次")).toBeTruthy();
    ask("怎么开机启动？");
    // The stored conversation is read once it exists (a second read may follow the answer's end
    // on a slow machine: the list's invalidation and the selection race).
    await waitFor(() =>
      expect(fake.callsTo(AssistantApi.getUserAssistantConversationDetail).length).toBeGreaterThanOrEqual(1),
    );
    expect(await screen.findByText("用 systemd。")).toBeTruthy();
    expect(await screen.findByText("开机启动")).toBeTruthy();
    expect(fake.callsTo(AssistantApi.postUserAssistantChat)[0].body).toEqual({ content: "怎么开机启动？" });

    refuse = true;
    ask("再问一个");
    expect(await screen.findByText("今天的提问次数已用完")).toBeTruthy();
    // Never stored: the question is back in the box to send later.
    expect((screen.getByLabelText("提问") as HTMLTextAreaElement).value).toBe("再问一个");
    expect(fake.unanswered).toEqual([]);
  });
});
