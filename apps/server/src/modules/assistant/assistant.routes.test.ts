import net, { type AddressInfo } from "node:net";
import type {
  AdminNodeDetail,
  AssistantConversationDetail,
  AssistantConversationRow,
  AssistantStatus,
  AssistantStreamEvent,
  LogExplanation,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDomains } from "../../../test/domain-fixtures";
import { type FakeChat, startFakeChat } from "../../../test/fake-chat";
import { createTestNode, createTestTunnel, setPlan } from "../../../test/frp-fixtures";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../../../test/harness";

const API_KEY = "sk-test-assistant-key-0123456789";
const DAILY_LIMIT = 5;

let fake: FakeChat;
let t: TestApp;
let node: AdminNodeDetail;

beforeAll(async () => {
  fake = await startFakeChat();
  t = await createTestApp({
    AI_BASE_URL: fake.baseUrl,
    AI_API_KEY: API_KEY,
    AI_MODEL: "fake-model",
    AI_DAILY_LIMIT: String(DAILY_LIMIT),
  });
  // The privacy case gives tunnels custom domains; owning them is the domains suite's concern.
  openDomains(t);
  node = await createTestNode(t, { bandwidth: 0 });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** POST /user/assistant/chat, the event stream parsed (or the envelope of a refusal). */
async function ask(token: string, content: string, conversationId?: number) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/user/assistant/chat",
    headers: { authorization: `Bearer ${token}` },
    payload: { content, ...(conversationId && { conversation_id: conversationId }) },
  });
  const events: AssistantStreamEvent[] = [];
  if (String(res.headers["content-type"]).startsWith("text/event-stream"))
    for (const block of res.body.split("\n\n")) {
      const data = block.split("\n").find((l) => l.startsWith("data: "));
      if (data) events.push(JSON.parse(data.slice(6)));
    }
  return { status: res.statusCode, headers: res.headers, events, body: res.body };
}

const answerOf = (events: AssistantStreamEvent[]) =>
  events.flatMap((e) => (e.type === "delta" ? [e.text] : [])).join("");

describe("assistant chat", () => {
  it("streams the provider's answer piece by piece and keeps the conversation", async () => {
    const c = await t.register();
    const before = fake.requests.length;
    const r = await ask(c.token, "怎么在 Linux 上安装 frpc？");
    expect(r.status).toBe(200);
    // The short set of security headers (as on JSON answers) travels with the stream too.
    expect(r.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(r.events.map((e) => e.type)).toEqual(["start", ...Array(7).fill("delta"), "done"]);
    const start = r.events[0] as Extract<AssistantStreamEvent, { type: "start" }>;
    expect(start.question).toMatchObject({ role: "user", content: "怎么在 Linux 上安装 frpc？", explanations: [] });
    expect(answerOf(r.events)).toBe(
      "您好！关于「怎么在 Linux 上安装 frpc？」：请先在隧道列表下载配置文件（/tun/list）。",
    );

    // One streamed request to the provider, with the key in the header and the Linux docs in the prompt.
    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.body).toMatchObject({ model: "fake-model", stream: true });
    const system = sent.body.messages![0];
    expect(system.role).toBe("system");
    expect(system.content).toContain("/doc/linux");

    const list = await t.api<AssistantConversationRow[]>("GET", "/user/assistant/conversation", { token: c.token });
    expect(list.body.data).toEqual([
      expect.objectContaining({ id: start.conversation.id, title: "怎么在 Linux 上安装 frpc？" }),
    ]);

    // A follow-up in the same conversation carries the earlier exchange.
    const r2 = await ask(c.token, "那 Windows 呢？", start.conversation.id);
    expect(r2.events.at(-1)?.type).toBe("done");
    expect(fake.requests.at(-1)!.body.messages!.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    const detail = await t.api<AssistantConversationDetail>(
      "GET",
      `/user/assistant/conversation/${start.conversation.id}`,
      {
        token: c.token,
      },
    );
    expect(detail.body.data.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const status = await t.api<AssistantStatus>("GET", "/user/assistant/status", { token: c.token });
    expect(status.body.data).toEqual({ configured: true, daily_limit: DAILY_LIMIT, used_today: 2 });
  });

  it("explains a pasted frpc log line with the rule table, in the stream and in the prompt", async () => {
    const c = await t.register();
    const line = "2026-11-24 10:00:00.000 [W] [client/control.go:163] [t_31] start error: port already used";
    const r = await ask(c.token, `frpc 报错了：\n${line}`);
    const start = r.events[0] as Extract<AssistantStreamEvent, { type: "start" }>;
    expect(start.question.explanations).toEqual([
      expect.objectContaining({ rule: "port-used", tun_id: 31, link: { label: "隧道 t_31", path: "/tun/list/31" } }),
    ]);
    expect(fake.requests.at(-1)!.body.messages![0].content).toContain("远程端口已被占用");
  });

  it("validates the question and refuses someone else's conversation", async () => {
    const a = await t.register();
    const b = await t.register();
    const empty = await ask(a.token, "   ");
    expect([empty.status, JSON.parse(empty.body).code]).toEqual([400, 10000]);
    expect(JSON.parse(empty.body).msg).toMatch(/^content: /);
    const mine = await ask(a.token, "你好");
    const id = (mine.events[0] as Extract<AssistantStreamEvent, { type: "start" }>).conversation.id;
    const before = fake.requests.length;
    const theirs = await ask(b.token, "偷看", id);
    expect([theirs.status, JSON.parse(theirs.body).code]).toEqual([404, 2004]);
    expect(fake.requests.length).toBe(before);
    const read = await t.api("GET", `/user/assistant/conversation/${id}`, { token: b.token });
    expect([read.status, read.body.code]).toEqual([404, 2004]);
    const del = await t.api("DELETE", `/user/assistant/conversation/${id}`, { token: b.token });
    expect([del.status, del.body.code]).toEqual([404, 2004]);
    // B's refused question did not count.
    const status = await t.api<AssistantStatus>("GET", "/user/assistant/status", { token: b.token });
    expect(status.body.data.used_today).toBe(0);
  });

  it("deletes a conversation with its messages", async () => {
    const c = await t.register();
    const r = await ask(c.token, "删除测试");
    const id = (r.events[0] as Extract<AssistantStreamEvent, { type: "start" }>).conversation.id;
    const del = await t.api("DELETE", `/user/assistant/conversation/${id}`, { token: c.token });
    expect(del.body.code).toBe("SUCCESS");
    expect((await t.api("GET", `/user/assistant/conversation/${id}`, { token: c.token })).status).toBe(404);
    const left = await t.db.selectFrom("assistant_messages").select("id").where("conversation_id", "=", id).execute();
    expect(left).toEqual([]);
  });

  it("holds the daily limit under concurrent questions", async () => {
    const c = await t.register();
    const results = await Promise.all(Array.from({ length: DAILY_LIMIT + 4 }, (_, i) => ask(c.token, `并发问题 ${i}`)));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok.length).toBe(DAILY_LIMIT);
    for (const r of refused) expect([r.status, JSON.parse(r.body).code]).toEqual([403, 2001]);
    expect(JSON.parse(refused[0].body).msg).toContain("今天的提问次数已用完");
    const status = await t.api<AssistantStatus>("GET", "/user/assistant/status", { token: c.token });
    expect(status.body.data.used_today).toBe(DAILY_LIMIT);
  });
});

describe("provider failures (issue 30 §8)", () => {
  /** OpenAI's words for a wrong key: they carry (part of) the key. */
  const KEY_ERROR = `Incorrect API key provided: ${API_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`;
  const used = async (token: string) =>
    (await t.api<AssistantStatus>("GET", "/user/assistant/status", { token })).body.data.used_today;
  /** What the server logged at warn while `fn` ran. */
  async function logged(fn: () => Promise<void>): Promise<string> {
    const warn = vi.spyOn(t.ctx.log, "warn");
    try {
      await fn();
      return JSON.stringify(warn.mock.calls);
    } finally {
      warn.mockRestore();
    }
  }

  it("an HTTP error: a fixed message, the provider's words only in the log with the key blanked out; the question counts", async () => {
    const c = await t.register();
    fake.options.failWith = 401;
    fake.options.failMessage = KEY_ERROR;
    let r!: Awaited<ReturnType<typeof ask>>;
    try {
      const log = await logged(async () => {
        r = await ask(c.token, "会失败的问题");
      });
      expect(log).toContain("Incorrect API key provided");
      expect(log).toContain("401");
      expect(log).not.toContain(API_KEY);
      expect(log).not.toContain("sk-");
    } finally {
      fake.options.failWith = undefined;
      fake.options.failMessage = undefined;
    }
    expect(r.events.map((e) => e.type)).toEqual(["start", "error"]);
    expect(r.events[1]).toEqual({ type: "error", msg: "AI 服务出错，没能完成回答，请稍后再试" });
    expect(r.body).not.toContain("Incorrect API key");
    expect(r.body).not.toContain(API_KEY);
    // It reached the provider: it counts.
    expect(await used(c.token)).toBe(1);
    const [conv] = (await t.api<AssistantConversationRow[]>("GET", "/user/assistant/conversation", { token: c.token }))
      .body.data;
    const detail = await t.api<AssistantConversationDetail>("GET", `/user/assistant/conversation/${conv.id}`, {
      token: c.token,
    });
    expect(detail.body.data.messages.map((m) => m.role)).toEqual(["user"]);
  });

  it("an in-stream error carrying the key is never shown, before or after the first piece; the question counts", async () => {
    const c = await t.register();
    for (const after of [0, 2]) {
      fake.options.streamError = { message: KEY_ERROR, after };
      let r!: Awaited<ReturnType<typeof ask>>;
      try {
        const log = await logged(async () => {
          r = await ask(c.token, `中途出错 ${after}`);
        });
        expect(log).toContain("Incorrect API key provided");
        expect(log).not.toContain(API_KEY);
      } finally {
        fake.options.streamError = undefined;
      }
      expect(r.events.at(-1)).toEqual({ type: "error", msg: "AI 服务出错，没能完成回答，请稍后再试" });
      expect(r.body).not.toContain(API_KEY);
      expect(r.body).not.toContain("Incorrect API key");
      expect(answerOf(r.events)).toBe(after ? "您好！关于「" : "");
    }
    expect(await used(c.token)).toBe(2);
    // The part answered is kept with the fixed reason, never the provider's words.
    const stored = await t.db.selectFrom("assistant_messages").select("content").where("uid", "=", c.uid).execute();
    expect(JSON.stringify(stored)).not.toContain("Incorrect API key");
    expect(stored.map((m) => m.content)).toContain(
      "您好！关于「\n\n（回答中断：AI 服务出错，没能完成回答，请稍后再试）",
    );
  });

  it("a failing provider cannot be asked past the daily limit", async () => {
    const c = await t.register();
    fake.options.failWith = 500;
    const before = fake.requests.length;
    try {
      for (let i = 0; i < DAILY_LIMIT; i++) {
        const r = await ask(c.token, `第 ${i} 次`);
        expect(r.events.map((e) => e.type)).toEqual(["start", "error"]);
      }
      const over = await ask(c.token, "再问一次");
      expect([over.status, JSON.parse(over.body).code]).toEqual([403, 2001]);
    } finally {
      fake.options.failWith = undefined;
    }
    expect(fake.requests.length - before).toBe(DAILY_LIMIT);
    expect(await used(c.token)).toBe(DAILY_LIMIT);
  });

  it("a provider that was never reached (connection refused, unknown host) gives the question back", async () => {
    const c = await t.register();
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
    const config = t.ctx.config;
    const baseUrl = config.AI_BASE_URL;
    try {
      for (const url of [`http://127.0.0.1:${closed}/v1`, "http://burrow-assistant-test.invalid/v1"]) {
        config.AI_BASE_URL = url;
        const r = await ask(c.token, "连不上的服务");
        expect(r.events.map((e) => e.type)).toEqual(["start", "error"]);
        expect(r.events[1]).toEqual({
          type: "error",
          msg: "无法连接 AI 服务，这次提问不计入今天的次数，请稍后再试",
        });
        expect(await used(c.token)).toBe(0);
      }
    } finally {
      config.AI_BASE_URL = baseUrl;
    }
  });
});

describe("what reaches the prompt", () => {
  it("holds only the asking customer's data, and no secret", async () => {
    const a = await t.register();
    const b = await t.register();
    await setPlan(t, a.uid);
    await setPlan(t, b.uid);
    const mineTunnel = await createTestTunnel(t, a.token, {
      node_id: node.node_id,
      tun_name: "alicenas",
      local_ip: "192.168.31.5",
    });
    const theirs = [
      await createTestTunnel(t, b.token, { node_id: node.node_id, tun_name: "bobsecretcam", local_ip: "10.99.88.77" }),
      await createTestTunnel(t, b.token, {
        node_id: node.node_id,
        tun_name: "bobweb",
        protocol: "http",
        local_ip: "172.31.200.9",
        local_port: 8080,
        custom_domains: ["bob-private.example.com"],
      }),
    ];
    const users = await t.db
      .selectFrom("users")
      .select(["uid", "frp_token"])
      .where("uid", "in", [a.uid, b.uid])
      .execute();
    const tokenOf = (uid: number) => users.find((u) => u.uid === uid)!.frp_token;

    // A pastes their own frpc.toml (token included) and asks about B's tunnel by name.
    const question = [
      "我的 frpc.toml 是这样的，bobsecretcam 是谁的？",
      'serverAddr = "203.0.113.10"',
      `metadatas.token = "${tokenOf(a.uid)}"`,
      `auth.token = "${tokenOf(a.uid)}"`,
      `我的令牌 ${tokenOf(a.uid)}`,
      `Authorization: Bearer ${API_KEY}`,
    ].join("\n");
    const r = await ask(a.token, question);
    expect(r.events.at(-1)?.type).toBe("done");
    const sent = fake.requests.at(-1)!.raw;

    // A's own tunnel is there (the assistant does know the customer) …
    expect(sent).toContain(mineTunnel.tun_name);
    expect(sent).toContain("192.168.31.5");
    // … B's tunnel names, addresses, domains and token are not (the name A typed is A's own text).
    const withoutQuestionText = sent.replaceAll("bobsecretcam 是谁的", "");
    for (const tun of theirs) {
      expect(withoutQuestionText).not.toContain(tun.tun_name);
      expect(sent).not.toContain(tun.local_ip);
      expect(sent).not.toContain(tun.proxy_name);
    }
    expect(sent).not.toContain("bob-private.example.com");
    expect(sent).not.toContain(tokenOf(b.uid));
    // No secret: A's token (even pasted), the API key, any password.
    expect(sent).not.toContain(tokenOf(a.uid));
    expect(sent).not.toContain(API_KEY);
    expect(sent).not.toContain(ADMIN_PASSWORD);
    expect(sent).not.toContain(a.password);
    expect(sent).toContain("[已隐藏]");
  });
});

describe("how tunnels read in the prompt", () => {
  it("names every port of a port range, and a secret tunnel without a remote port", async () => {
    const a = await t.register();
    await setPlan(t, a.uid, { tunnel_peer_port_limit: 10 });
    await createTestTunnel(t, a.token, { node_id: node.node_id, remote_port: 20031, remote_port_end: 20034 });
    await createTestTunnel(t, a.token, { node_id: node.node_id, protocol: "stcp", tun_name: "alicestcp" });
    const r = await ask(a.token, "我的隧道怎么访问？");
    expect(r.events.at(-1)?.type).toBe("done");
    const sent = fake.requests.at(-1)!.raw;
    expect(sent).toContain("远程端口 20031–20034");
    expect(sent).toContain("私密隧道（无远程端口");
    expect(sent).not.toContain("远程端口 null");
  });
});

describe("without an AI endpoint", () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp();
  });
  afterAll(() => bare.close());

  it("says it is not configured, and still explains log lines offline", async () => {
    const c = await bare.register();
    const status = await bare.api<AssistantStatus>("GET", "/user/assistant/status", { token: c.token });
    expect(status.body.data).toMatchObject({ configured: false, used_today: 0 });
    const chat = await bare.api("POST", "/user/assistant/chat", { token: c.token, body: { content: "你好" } });
    expect([chat.status, chat.body.code]).toEqual([403, 2001]);
    expect(chat.body.msg).toContain("未配置");
    const explained = await bare.api<LogExplanation[]>("POST", "/user/assistant/explain", {
      token: c.token,
      body: {
        text: "2026-11-24 10:00:00.000 [W] [client/service.go:322] connect to server error: token in login doesn't match token from configuration",
      },
    });
    expect(explained.body.data).toEqual([
      expect.objectContaining({ rule: "token-mismatch", link: { label: "隧道列表", path: "/tun/list" } }),
    ]);
    const anonymous = await bare.api("POST", "/user/assistant/explain", { body: { text: "x" } });
    expect(anonymous.status).toBe(401);
  });
});
