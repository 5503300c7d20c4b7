/** One message of an OpenAI-style chat. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatProvider {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/**
 * The provider failed. `message` is what the customer is shown; `detail` (the provider's own
 * words, which may name hosts, accounts or parts of a key) goes to the log only.
 */
export class ProviderError extends Error {
  override name = "ProviderError";
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/**
 * Streams a chat completion from any OpenAI-compatible endpoint (`POST <base>/chat/completions`
 * with `stream: true`): yields the answer's text as the provider sends it (Server-Sent Events,
 * `data: {choices:[{delta:{content}}]}` … `data: [DONE]`). A provider that answers without
 * streaming (one JSON body) is read too.
 */
export async function* streamChat(
  p: ChatProvider,
  messages: ChatMessage[],
  signal: AbortSignal,
): AsyncGenerator<string> {
  const url = `${p.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        ...(p.apiKey && { authorization: `Bearer ${p.apiKey}` }),
      },
      body: JSON.stringify({ model: p.model, messages, stream: true, temperature: 0.3 }),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new ProviderError("无法连接 AI 服务", (err as Error).message);
  }
  if (!res.ok || !res.body) {
    const detail = (await res.text().catch(() => "")).slice(0, 500);
    throw new ProviderError(`AI 服务暂时不可用（HTTP ${res.status}）`, detail);
  }
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const body = (await res.json().catch(() => null)) as { choices?: { message?: { content?: string } }[] } | null;
    const text = body?.choices?.[0]?.message?.content;
    if (typeof text !== "string") throw new ProviderError("AI 服务的回答无法识别");
    yield text;
    return;
  }
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let nl = buf.indexOf("\n");
    while (nl >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, "");
      buf = buf.slice(nl + 1);
      nl = buf.indexOf("\n");
      if (!line.startsWith("data:")) continue;
      const data = line.slice(5).trim();
      if (data === "[DONE]") return;
      let event: { choices?: { delta?: { content?: string | null } }[]; error?: { message?: string } };
      try {
        event = JSON.parse(data);
      } catch {
        continue;
      }
      if (event.error) throw new ProviderError(`AI 服务出错：${event.error.message ?? "未知错误"}`);
      const piece = event.choices?.[0]?.delta?.content;
      if (piece) yield piece;
    }
  }
}
