import {
  type CallInput,
  type Endpoint,
  type Envelope,
  ErrorCode,
  fillPath,
  type ResponseOf,
  SESSION_INVALID_CODES,
  SUCCESS,
} from "@burrow/contract";
import axios, { type AxiosRequestConfig, isAxiosError, isCancel } from "axios";
import type { ZodType } from "zod";
import { progressDone, progressStart } from "@/lib/progress";
import { clearToken, getToken } from "@/lib/token";

/** Client-side codes for failures that never reached the server's envelope. */
export const ClientErrorCode = {
  /** no connection, DNS, CORS, connection reset */
  Network: -1,
  /** no answer within the timeout */
  Timeout: -2,
  /** the server answered something that is not the `{code,msg,data}` envelope */
  BadResponse: -3,
} as const;

/** Request timeout (SPEC §9). */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Every failed call rejects with this; the UI branches on `code`, never on the text. */
export class ApiError extends Error {
  /** numeric server code (DESIGN.md §3) or one of {@link ClientErrorCode} */
  readonly code: number;
  /** HTTP status; 0 when there was no answer */
  readonly status: number;
  /** the request field the error is about, for code 10000 ("phone: …" → "phone") */
  readonly field?: string;

  constructor(code: number, status: number, message: string, field?: string) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
    this.field = field;
  }

  /** true for 30001–30003: the token is no longer valid */
  get isSessionInvalid(): boolean {
    return SESSION_INVALID_CODES.includes(this.code);
  }

  /** true for 30004 */
  get isForbidden(): boolean {
    return this.code === ErrorCode.NoPermission;
  }
}

/** What the app does on auth-related codes; wired to the router in main.tsx. */
export interface ClientHandlers {
  onSessionInvalid: () => void;
  onForbidden: () => void;
}

let handlers: ClientHandlers = {
  onSessionInvalid: () => window.location.assign("/login"),
  onForbidden: () => window.location.assign("/403"),
};

/** Replaces the default reactions (full page loads) with router navigation. */
export function configureApiClient(next: ClientHandlers): void {
  handlers = next;
}

/** Per-call options on top of axios'. */
export interface CallOptions extends Pick<AxiosRequestConfig, "params" | "signal" | "headers" | "onUploadProgress"> {
  /** do not redirect on 30001–30004 (logout: the session may already be gone) */
  skipAuthRedirect?: boolean;
}

const http = axios.create({
  baseURL: import.meta.env.VITE_API_BASE ?? "/api",
  timeout: REQUEST_TIMEOUT_MS,
  // HTTP errors still carry the envelope, so every status is read the same way.
  validateStatus: () => true,
});

const FIELD_MESSAGE = /^([A-Za-z_][\w.]*): (.+)$/s;

/**
 * Splits a 10000 message of the form "field: text" into its parts.
 * @param msg the server's message
 * @returns the field (undefined when the message names none or names the whole body) and the text
 */
export function splitFieldMessage(msg: string): { field?: string; text: string } {
  const m = FIELD_MESSAGE.exec(msg);
  if (!m || m[1] === "body") return { text: msg };
  return { field: m[1], text: m[2] };
}

function isEnvelope(body: unknown): body is Envelope<unknown> {
  return typeof body === "object" && body !== null && "code" in body && "msg" in body;
}

function toApiError(body: unknown, status: number): ApiError {
  if (!isEnvelope(body)) {
    return new ApiError(ClientErrorCode.BadResponse, status, `服务器响应异常（HTTP ${status}）`);
  }
  const code = typeof body.code === "number" ? body.code : Number(body.code) || ClientErrorCode.BadResponse;
  const msg = body.msg || "请求失败";
  const data = body.data as { field?: unknown } | null;
  const explicit = typeof data?.field === "string" ? data.field : undefined;
  if (code === ErrorCode.InvalidParams) {
    const { field, text } = splitFieldMessage(msg);
    return new ApiError(code, status, text, explicit ?? field);
  }
  return new ApiError(code, status, msg, explicit);
}

function transportError(err: unknown): ApiError {
  if (isAxiosError(err) && (err.code === "ECONNABORTED" || err.code === "ETIMEDOUT")) {
    return new ApiError(ClientErrorCode.Timeout, 0, "请求超时");
  }
  return new ApiError(ClientErrorCode.Network, 0, "网络错误");
}

function react(err: ApiError, sentToken: string | null, opts: CallOptions | undefined): void {
  if (opts?.skipAuthRedirect) return;
  if (err.isSessionInvalid) {
    // A late answer for a token that was already replaced (signed in again) must not sign the new one out.
    if (sentToken !== null && getToken() !== sentToken) return;
    clearToken();
    handlers.onSessionInvalid();
  } else if (err.isForbidden) {
    handlers.onForbidden();
  }
}

async function call<T>(config: AxiosRequestConfig, opts?: CallOptions): Promise<T> {
  const token = getToken();
  const headers: Record<string, string> = { ...(opts?.headers as Record<string, string> | undefined) };
  if (token) headers.Authorization = `Bearer ${token}`;
  progressStart();
  try {
    let res: Awaited<ReturnType<typeof http.request<unknown>>>;
    try {
      res = await http.request<unknown>({
        ...config,
        params: opts?.params,
        signal: opts?.signal,
        onUploadProgress: opts?.onUploadProgress,
        headers,
      });
    } catch (err) {
      if (isCancel(err)) throw err;
      throw transportError(err);
    }
    const body = res.data;
    if (isEnvelope(body) && body.code === SUCCESS) return body.data as T;
    const err = toApiError(body, res.status);
    react(err, token, opts);
    throw err;
  } finally {
    progressDone();
  }
}

/** A file the server sent instead of an envelope. */
export interface DownloadedFile {
  blob: Blob;
  /** from Content-Disposition, when the server names it */
  filename?: string;
}

const FILENAME = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i;

/**
 * The file name a Content-Disposition header gives (`filename="a.csv"` or `filename*=UTF-8''a.csv`).
 * @param header the header's value
 */
export function filenameFromDisposition(header: string): string | undefined {
  const name = FILENAME.exec(header)?.[1];
  if (!name) return undefined;
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * GET a file (CSV exports…) with the same base URL, token, timeout, progress bar and error
 * reactions as every call; an error answer is the usual envelope and rejects with {@link ApiError}.
 */
async function download(url: string, opts?: CallOptions): Promise<DownloadedFile> {
  const token = getToken();
  const headers: Record<string, string> = { ...(opts?.headers as Record<string, string> | undefined) };
  if (token) headers.Authorization = `Bearer ${token}`;
  progressStart();
  try {
    let res: Awaited<ReturnType<typeof http.request<Blob>>>;
    try {
      res = await http.request<Blob>({
        method: "GET",
        url,
        params: opts?.params,
        signal: opts?.signal,
        headers,
        responseType: "blob",
      });
    } catch (err) {
      if (isCancel(err)) throw err;
      throw transportError(err);
    }
    const type = String(res.headers["content-type"] ?? "");
    if (res.status >= 200 && res.status < 300 && !type.includes("application/json")) {
      return { blob: res.data, filename: filenameFromDisposition(String(res.headers["content-disposition"] ?? "")) };
    }
    let body: unknown;
    try {
      body = JSON.parse(await res.data.text());
    } catch {
      body = undefined;
    }
    const err = toApiError(body, res.status);
    react(err, token, opts);
    throw err;
  } finally {
    progressDone();
  }
}

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
  const config: AxiosRequestConfig = { method: ep.method, url: fillPath(ep.url, i.params), data: i.body };
  return call<ResponseOf<E>>(config, { ...opts, params: i.query ?? opts?.params });
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
  return call<ResponseOf<E>>({ method: ep.method, url: ep.url, data: form }, opts);
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
 * as it arrives. A refusal before the stream is the usual envelope and rejects with
 * {@link ApiError}. Uses fetch: axios in the browser cannot read a body while it arrives.
 */
async function stream<E extends Endpoint, T>(
  ep: E,
  input: CallInput<E>,
  onEvent: (event: T) => void,
  opts?: StreamOptions,
): Promise<void> {
  const i = (input ?? {}) as { body?: unknown; params?: Record<string, unknown> };
  const token = getToken();
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const base = import.meta.env.VITE_API_BASE ?? "/api";
  progressStart();
  let res: Response;
  try {
    res = await fetch(`${base}${fillPath(ep.url, i.params)}`, {
      method: ep.method,
      headers,
      body: JSON.stringify(i.body ?? {}),
      signal: opts?.signal,
    });
  } catch (err) {
    progressDone();
    if (opts?.signal?.aborted) throw err;
    throw new ApiError(ClientErrorCode.Network, 0, "网络错误");
  }
  progressDone();
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream") || !res.body) {
    const body: unknown = await res.json().catch(() => null);
    const err = toApiError(body, res.status);
    react(err, token, undefined);
    throw err;
  }
  const reader = res.body.getReader();
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
