import { redactSecrets } from "./facts";

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
 * The provider failed. `message` is what the customer is shown, always one of the fixed texts
 * below; `detail` (the provider's own words, which may name hosts, accounts or a key) goes to the
 * log only, with anything key-like blanked out. `reached` is false only when the request never
 * left (a refused connection, an unknown host): then nothing can have been billed.
 */
export class ProviderError extends Error {
  override name = "ProviderError";
  constructor(
    message: string,
    readonly detail: string,
    readonly reached: boolean,
  ) {
    super(message);
  }
}

export const PROVIDER_UNREACHABLE = "无法连接 AI 服务，这次提问不计入今天的次数，请稍后再试";
export const PROVIDER_FAILED = "AI 服务出错，没能完成回答，请稍后再试";
export const PROVIDER_UNREADABLE = "AI 服务的回答无法识别，请稍后再试";

/**
 * Errors of connecting, before a byte of the request is written: the DNS lookup failed or nothing
 * accepted the connection. A reset, a TLS failure or a timeout may come after the request left.
 */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** fetch's "fetch failed" carries the socket's error as its cause (an AggregateError per address tried). */
function neverSent(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown; errors?: { code?: unknown }[] } }).cause;
  const codes = [cause?.code, ...(cause?.errors ?? []).map((e) => e?.code)].filter((c) => c !== undefined);
  return codes.length > 0 && codes.every((c) => NOT_SENT.has(String(c)));
}

const KEY_PREFIXED = /\b(?:sk|ak|pk|rk)-[^\s"',;)]+/gi;
/** A run of 20+ letters, digits, ".", "_" or "-" holding both a letter and a digit: a token, not a word. */
const TOKEN_LIKE = /(?<![\w.-])(?=[\w.-]*\d)(?=[\w.-]*[A-Za-z])[\w.-]{20,}(?![\w.-])/g;

/** Provider text as it may reach the log: the configured key, and anything shaped like a key, blanked out. */
export function redactProviderText(text: string, apiKey: string): string {
  return redactSecrets(text, apiKey ? [apiKey] : [])
    .replace(KEY_PREFIXED, "[已隐藏]")
    .replace(TOKEN_LIKE, "[已隐藏]");
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
  const clean = (text: string) => redactProviderText(text.slice(0, 500), p.apiKey);
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
    const cause = (err as { cause?: Error }).cause;
    const detail = clean(`${(err as Error).message}${cause?.message ? `: ${cause.message}` : ""}`);
    if (neverSent(err)) throw new ProviderError(PROVIDER_UNREACHABLE, detail, false);
    throw new ProviderError(PROVIDER_FAILED, detail, true);
  }
  if (!res.ok || !res.body) {
    const body = await res.text().catch(() => "");
    throw new ProviderError(PROVIDER_FAILED, clean(`HTTP ${res.status}: ${body}`), true);
  }
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const body = (await res.json().catch(() => null)) as { choices?: { message?: { content?: string } }[] } | null;
    const text = body?.choices?.[0]?.message?.content;
    if (typeof text !== "string") throw new ProviderError(PROVIDER_UNREADABLE, "no choices[0].message.content", true);
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
      // The provider's words never reach the customer (one said "Incorrect API key provided: sk-…").
      if (event.error)
        throw new ProviderError(PROVIDER_FAILED, clean(event.error.message ?? JSON.stringify(event.error)), true);
      const piece = event.choices?.[0]?.delta?.content;
      if (piece) yield piece;
    }
  }
}
