import { type CallInput, type Endpoint, fillPath, type ResponseOf } from "@burrow/contract";
import type { ZodType } from "zod";
import { type CallOptions, type DownloadedFile, download, openStream, request } from "./transport";

export {
  ApiError,
  type CallOptions,
  ClientErrorCode,
  configureApiClient,
  type DownloadedFile,
  filenameFromDisposition,
  REQUEST_TIMEOUT_MS,
  splitFieldMessage,
} from "./transport";

/** Endpoints whose input has a body or path params must be given it; the others may omit it. */
type EndpointArgs<E> =
  E extends Endpoint<unknown, infer B, ZodType | undefined, infer P>
    ? B extends undefined
      ? P extends undefined
        ? [input?: CallInput<E>, opts?: CallOptions]
        : [input: CallInput<E>, opts?: CallOptions]
      : [input: CallInput<E>, opts?: CallOptions]
    : never;

/**
 * Calls a contract endpoint: the URL (path params filled in), method, body and query come from the
 * endpoint's entry, and the answer is typed by it. The one way pages reach the API.
 */
function callEndpoint<E extends Endpoint>(ep: E, ...[input, opts]: EndpointArgs<E>): Promise<ResponseOf<E>> {
  const i = (input ?? {}) as { body?: unknown; query?: object; params?: Record<string, unknown> };
  const spec = { method: ep.method, url: fillPath(ep.url, i.params), body: i.body };
  return request<ResponseOf<E>>(spec, { ...opts, params: i.query ?? opts?.params });
}

/** A file an endpoint answers (CSV exports), with its query. */
function downloadEndpoint<E extends Endpoint>(
  ep: E,
  input?: CallInput<E>,
  opts?: CallOptions,
): Promise<DownloadedFile> {
  const i = (input ?? {}) as { query?: object; params?: Record<string, unknown> };
  return download(fillPath(ep.url, i.params), { ...opts, params: i.query });
}

/** A multipart upload to an endpoint that takes a file (the avatar). */
function upload<E extends Endpoint>(ep: E, form: FormData, opts?: CallOptions): Promise<ResponseOf<E>> {
  return request<ResponseOf<E>>({ method: ep.method, url: ep.url, body: form }, opts);
}

/** Options of a streamed call. */
export interface StreamOptions {
  signal?: AbortSignal;
}

/** Splits Server-Sent Events text into complete events' `data` (JSON), keeping the unfinished tail. */
export function takeSseEvents(buffer: string): { events: unknown[]; rest: string } {
  const blocks = buffer.replace(/\r\n/g, "\n").split("\n\n");
  const rest = blocks.pop() ?? "";
  const events: unknown[] = [];
  for (const block of blocks) {
    const data = block
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    try {
      events.push(JSON.parse(data));
    } catch {
      // not JSON: not one of ours
    }
  }
  return { events, rest };
}

/**
 * POSTs to an endpoint that answers an event stream (`raw: "stream"`, the assistant's chat) with
 * the same base URL, token and error reactions as every call, and hands each event to `onEvent`
 * as it arrives.
 */
async function stream<E extends Endpoint, T>(
  ep: E,
  input: CallInput<E>,
  onEvent: (event: T) => void,
  opts?: StreamOptions,
): Promise<void> {
  const i = (input ?? {}) as { body?: unknown; params?: Record<string, unknown> };
  const body = await openStream({ method: ep.method, url: fillPath(ep.url, i.params), body: i.body }, opts?.signal);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    const { events, rest } = takeSseEvents(done ? `${buffer}\n\n` : buffer);
    buffer = rest;
    for (const e of events) onEvent(e as T);
    if (done) return;
  }
}

/**
 * THE API client: base URL, Bearer token, progress bar, envelope unwrapping, `ApiError`s and the
 * session/permission reactions of SPEC §6/§8. Resolves with the envelope's `data`.
 */
export const api = {
  call: callEndpoint,
  upload,
  download: downloadEndpoint,
  stream,
};
