import { type Envelope, ErrorCode, SESSION_INVALID_CODES, SUCCESS } from "@burrow/contract/codes";
import { saveBan } from "@/lib/ban";
import { progressDone, progressStart } from "@/lib/progress";
import { clearToken, getToken } from "@/lib/token";

// The HTTP core of the API client, on fetch and free of zod, React Query and the router, so that
// /login's first load carries only this (bench/bundle-size.ts). `api/client.ts` builds the typed
// `api.call(endpoint, …)` on top of it.

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

const BASE = import.meta.env.VITE_API_BASE ?? "/api";

/** Every failed call rejects with this; the UI branches on `code`, never on the text. */
export class ApiError extends Error {
  /** numeric server code (DESIGN.md §3) or one of {@link ClientErrorCode} */
  readonly code: number;
  /** HTTP status; 0 when there was no answer */
  readonly status: number;
  /** the request field the error is about, for code 10000 ("phone: …" → "phone") */
  readonly field?: string;
  /** the envelope's `data` (30005: BannedData) */
  readonly data?: unknown;

  constructor(code: number, status: number, message: string, field?: string, data?: unknown) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
    this.field = field;
    this.data = data;
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

/** What the app does on auth-related codes; wired to the router in app-entry.tsx. */
export interface ClientHandlers {
  onSessionInvalid: () => void;
  onForbidden: () => void;
  /** 30005 on a signed-in call: the ban and its reason are stored (lib/ban.ts); show them */
  onBanned?: () => void;
}

let handlers: ClientHandlers = {
  onSessionInvalid: () => window.location.assign("/login"),
  onForbidden: () => window.location.assign("/403"),
  onBanned: () => window.location.assign("/appeal"),
};

/** Replaces the default reactions (full page loads) with router navigation. */
export function configureApiClient(next: ClientHandlers): void {
  handlers = next;
}

/** Per-call options. */
export interface CallOptions {
  /** query string parameters (undefined and null values are left out) */
  params?: object;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** upload progress of a multipart body, 0–100 */
  onUploadProgress?: (percent: number) => void;
  /** do not redirect on 30001–30005 (logout: the session may already be gone) */
  skipAuthRedirect?: boolean;
  /** a credential to send instead of the stored session's token (the ban appeal's session) */
  credential?: string;
}

/** One HTTP request to the API, relative to its base (`/api`). */
export interface RequestSpec {
  method: string;
  url: string;
  body?: unknown;
}

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
  return new ApiError(code, status, msg, explicit, body.data ?? undefined);
}

function react(err: ApiError, sentToken: string | null, opts: CallOptions | undefined): void {
  if (opts?.skipAuthRedirect || opts?.credential) return;
  if (err.code === ErrorCode.AccountBanned) {
    // A sign-in (no token sent) shows the ban itself; a signed-in call leaves the console for it.
    if (sentToken === null || getToken() !== sentToken) return;
    clearToken();
    saveBan(err.data);
    handlers.onBanned?.();
  } else if (err.isSessionInvalid) {
    // A late answer for a token that was already replaced (signed in again) must not sign the new one out.
    if (sentToken !== null && getToken() !== sentToken) return;
    clearToken();
    handlers.onSessionInvalid();
  } else if (err.isForbidden) {
    handlers.onForbidden();
  }
}

/** The URL of `url` under the API base with `params` as its query string. */
export function apiUrl(url: string, params?: object): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v === undefined || v === null) continue;
    for (const item of Array.isArray(v) ? v : [v]) query.append(k, String(item));
  }
  const qs = query.toString();
  return `${BASE}${url}${qs ? `?${qs}` : ""}`;
}

function authHeaders(token: string | null, opts: CallOptions | undefined): Record<string, string> {
  const headers: Record<string, string> = { ...opts?.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** An answer as this module reads it: status, one header lookup, and the body. */
interface RawAnswer {
  status: number;
  header(name: string): string;
  json(): Promise<unknown>;
  blob(): Promise<Blob>;
}

/**
 * Sends one request with the timeout, token, progress bar and error reactions every call shares.
 * A caller's abort rejects with the DOMException "AbortError" (React Query's cancellation), never
 * with an ApiError.
 */
async function send(spec: RequestSpec, opts: CallOptions | undefined, read: (a: RawAnswer) => Promise<unknown>) {
  const token = opts?.credential ?? getToken();
  const headers = authHeaders(token, opts);
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = opts?.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  progressStart();
  try {
    let answer: RawAnswer;
    try {
      answer =
        spec.body instanceof FormData && opts?.onUploadProgress
          ? await xhrSend(spec, headers, signal, opts.onUploadProgress)
          : await fetchSend(spec, headers, signal);
    } catch (err) {
      if (opts?.signal?.aborted) throw err;
      if (timeout.aborted) throw new ApiError(ClientErrorCode.Timeout, 0, "请求超时");
      throw new ApiError(ClientErrorCode.Network, 0, "网络错误");
    }
    const out = await read(answer);
    if (!(out instanceof ApiError)) return out;
    react(out, token, opts);
    throw out;
  } finally {
    progressDone();
  }
}

async function fetchSend(spec: RequestSpec, headers: Record<string, string>, signal: AbortSignal): Promise<RawAnswer> {
  let body: BodyInit | undefined;
  if (spec.body instanceof FormData) body = spec.body;
  else if (spec.body !== undefined) {
    body = JSON.stringify(spec.body);
    headers["Content-Type"] = "application/json";
  }
  const res = await fetch(spec.url, { method: spec.method, headers, body, signal });
  return {
    status: res.status,
    header: (name) => res.headers.get(name) ?? "",
    json: () => res.json(),
    blob: () => res.blob(),
  };
}

/** fetch cannot report upload progress; a multipart upload with a progress bar goes through XHR. */
function xhrSend(
  spec: RequestSpec,
  headers: Record<string, string>,
  signal: AbortSignal,
  onProgress: (percent: number) => void,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(spec.method, spec.url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.total ? Math.round((e.loaded / e.total) * 100) : 0);
    xhr.onload = () =>
      resolve({
        status: xhr.status,
        header: (name) => xhr.getResponseHeader(name) ?? "",
        json: async () => JSON.parse(xhr.responseText) as unknown,
        blob: async () => new Blob([xhr.response]),
      });
    xhr.onerror = () => reject(new TypeError("network error"));
    signal.addEventListener("abort", () => {
      xhr.abort();
      reject(signal.reason);
    });
    xhr.send(spec.body as FormData);
  });
}

/**
 * Calls the API and resolves with the envelope's `data`; anything else rejects with an ApiError
 * (after the session/permission reactions of SPEC §6/§8).
 */
export function request<T>(spec: RequestSpec, opts?: CallOptions): Promise<T> {
  const url = apiUrl(spec.url, opts?.params);
  return send({ ...spec, url }, opts, async (answer) => {
    let body: unknown;
    try {
      body = await answer.json();
    } catch {
      body = undefined;
    }
    if (isEnvelope(body) && body.code === SUCCESS) return body.data;
    return toApiError(body, answer.status);
  }) as Promise<T>;
}

/**
 * POSTs to an endpoint that answers an event stream and resolves with the stream's body once it
 * starts. No overall timeout (an answer may stream for minutes; the caller's signal stops it). A
 * refusal before the stream is the usual envelope and rejects with {@link ApiError}, after the
 * session/permission reactions.
 */
export async function openStream(spec: RequestSpec, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const token = getToken();
  const headers = authHeaders(token, undefined);
  headers["Content-Type"] = "application/json";
  headers.Accept = "text/event-stream";
  progressStart();
  let res: Response;
  try {
    res = await fetch(apiUrl(spec.url), {
      method: spec.method,
      headers,
      body: JSON.stringify(spec.body ?? {}),
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(ClientErrorCode.Network, 0, "网络错误");
  } finally {
    progressDone();
  }
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream") || !res.body) {
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    const err = toApiError(body, res.status);
    react(err, token, undefined);
    throw err;
  }
  return res.body;
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
 * GETs a file (CSV exports…) with the same base URL, token, timeout, progress bar and error
 * reactions as every call; an error answer is the usual envelope and rejects with {@link ApiError}.
 */
export function download(url: string, opts?: CallOptions): Promise<DownloadedFile> {
  return send({ method: "GET", url: apiUrl(url, opts?.params) }, opts, async (answer) => {
    const type = answer.header("content-type");
    if (answer.status >= 200 && answer.status < 300 && !type.includes("application/json")) {
      return { blob: await answer.blob(), filename: filenameFromDisposition(answer.header("content-disposition")) };
    }
    let body: unknown;
    try {
      body = await answer.json();
    } catch {
      body = undefined;
    }
    return toApiError(body, answer.status);
  }) as Promise<DownloadedFile>;
}
