import { type CallInput, type Endpoint, fillPath, type ResponseOf } from "@burrow/contract";
import type { ZodType } from "zod";
import { type CallOptions, type DownloadedFile, download, request } from "./transport";

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

/**
 * THE API client: base URL, Bearer token, progress bar, envelope unwrapping, `ApiError`s and the
 * session/permission reactions of SPEC §6/§8. Resolves with the envelope's `data`.
 */
export const api = {
  call: callEndpoint,
  upload,
  download: downloadEndpoint,
};
