import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake received. */
export interface FakeChatRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    stream?: boolean;
    messages?: { role: string; content: string }[];
  };
  /** the raw body as sent (what the secrecy tests search) */
  raw: string;
}

export interface FakeChatOptions {
  /** the answer, cut into these pieces; default: a short answer quoting the question */
  reply?: (req: FakeChatRequest) => string[];
  /** milliseconds between two pieces */
  delayMs?: number;
  /** answer this HTTP status with an error body instead */
  failWith?: number;
  /** the message of that error body (default "fake failure") */
  failMessage?: string;
  /** end the stream with an in-stream error event (`data: {"error":{"message"}}`) after `after` pieces */
  streamError?: { message: string; after?: number };
  /** do not keep the process alive (a server started in a test runner's global setup) */
  unref?: boolean;
}

export interface FakeChat {
  /** http://127.0.0.1:<port>/v1 */
  baseUrl: string;
  requests: FakeChatRequest[];
  options: FakeChatOptions;
  close(): Promise<void>;
}

/** The default answer: a few pieces, the last one naming a console page. */
export const defaultReply = (req: FakeChatRequest): string[] => {
  const q = req.body.messages?.at(-1)?.content ?? "";
  return ["您好！", "关于「", q.slice(0, 20), "」：", "请先在隧道列表", "下载配置文件", "（/tun/list）。"];
};

/**
 * A local server speaking the OpenAI chat-completions protocol on loopback: `POST
 * /v1/chat/completions` answers Server-Sent Events (`data: {choices:[{delta:{content}}]}` …
 * `data: [DONE]`) when asked to stream, one JSON body otherwise. It records every request.
 */
export async function startFakeChat(options: FakeChatOptions = {}): Promise<FakeChat> {
  const requests: FakeChatRequest[] = [];
  const state: FakeChat = { baseUrl: "", requests, options, close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      raw += c;
    });
    req.on("end", async () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
        return;
      }
      let body: FakeChatRequest["body"] = {};
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end();
        return;
      }
      const rec: FakeChatRequest = { path: req.url, headers: req.headers, body, raw };
      requests.push(rec);
      if (state.options.failWith) {
        res
          .writeHead(state.options.failWith, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: state.options.failMessage ?? "fake failure" } }));
        return;
      }
      const pieces = (state.options.reply ?? defaultReply)(rec);
      const id = `chatcmpl-${requests.length}`;
      if (!body.stream) {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id,
            object: "chat.completion",
            choices: [{ index: 0, message: { role: "assistant", content: pieces.join("") }, finish_reason: "stop" }],
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: "assistant", content: "" }));
      const streamError = state.options.streamError;
      for (const [i, p] of pieces.entries()) {
        if (res.destroyed) return;
        if (streamError && i === (streamError.after ?? 0)) break;
        res.write(chunk({ content: p }));
        if (state.options.delayMs) await new Promise((r) => setTimeout(r, state.options.delayMs));
      }
      if (streamError) {
        // As OpenAI does: an error event in place of the next chunk, then the stream ends.
        res.end(
          `data: ${JSON.stringify({ error: { message: streamError.message, type: "invalid_request_error" } })}\n\n`,
        );
        return;
      }
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  if (options.unref) server.unref();
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
