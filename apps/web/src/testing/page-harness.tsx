import type { Endpoint } from "@burrow/contract";
import { SUCCESS } from "@burrow/contract/codes";
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, configure, render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, vi } from "vitest";
import { createQueryClient } from "@/api/query-client";
import { AntdRoot } from "@/components/AntdRoot";

/** What a page sent to one endpoint. */
export interface FakeCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/**
 * An endpoint's answer: its `data`, or a function of the call returning it (or a whole Response,
 * e.g. an event stream; throw an {@link ApiFailure} to refuse).
 */
// Not `unknown | …`: that would swallow the function type and leave its parameter untyped.
type Answer = ((call: FakeCall) => unknown) | string | number | boolean | object | null;

/** A refusal the fake server answers with its envelope (code, message, data). */
export class ApiFailure {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly msg: string,
    readonly data: unknown = null,
  ) {}
}

/**
 * The API as a page meets it, answered from the contract's endpoint entries: a call to an
 * endpoint the test did not answer is recorded in `unanswered` (and fails with 404), so that a
 * test can say the page made no call it did not expect.
 */
export class FakeApi {
  readonly calls: FakeCall[] = [];
  readonly unanswered: string[] = [];
  private readonly routes: { ep: Endpoint; pattern: RegExp; answer: Answer }[] = [];

  on(ep: Endpoint, answer: Answer): this {
    const pattern = new RegExp(`^/api${ep.url.replace(/:(\w+)/g, "[^/]+")}$`);
    this.routes.unshift({ ep, pattern, answer });
    return this;
  }

  /** The calls made to one endpoint, oldest first. */
  callsTo(ep: Endpoint): FakeCall[] {
    const pattern = new RegExp(`^/api${ep.url.replace(/:(\w+)/g, "[^/]+")}$`);
    return this.calls.filter((c) => c.method === ep.method && pattern.test(c.path));
  }

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), "http://console.test");
    const method = (init?.method ?? "GET").toUpperCase();
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : (init?.body ?? null);
    const call: FakeCall = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body };
    this.calls.push(call);
    const route = this.routes.find((r) => r.ep.method === method && r.pattern.test(url.pathname));
    if (!route) {
      this.unanswered.push(`${method} ${url.pathname}`);
      return envelope(404, { code: 40004, msg: "not answered by the test", data: null });
    }
    try {
      const data = typeof route.answer === "function" ? (route.answer as (c: FakeCall) => unknown)(call) : route.answer;
      if (data instanceof Response) return data;
      return envelope(200, { code: SUCCESS, msg: "ok", data: data ?? null });
    } catch (e) {
      if (e instanceof ApiFailure) return envelope(e.status, { code: e.code, msg: e.msg, data: e.data });
      throw e;
    }
  };
}

function envelope(status: number, body: object): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/**
 * Renders a page with the console's providers (antd in zh-CN, a fresh TanStack Query client with
 * the console's error toasts, a router at `at`) against a {@link FakeApi}. `path` is the route
 * pattern the page is mounted on.
 */
export function renderPage(
  page: ReactElement,
  api: FakeApi,
  { path = "/", at = path }: { path?: string; at?: string } = {},
) {
  vi.stubGlobal("fetch", api.fetch);
  // The console's own client (its error toasts, its stale time), never retrying: a refusal is final here.
  const client = createQueryClient();
  client.setDefaultOptions({
    ...client.getDefaultOptions(),
    queries: { ...client.getDefaultOptions().queries, retry: false },
  });
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AntdRoot>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route path={path} element={page} />
            <Route path="*" element={<p data-testid="navigated" />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </AntdRoot>,
  );
  return { ...view, user, client };
}

// antd validates and re-renders asynchronously; on a loaded machine that takes more than 1 s.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** An event-stream answer of `events`, each sent as one `data:` block. */
export function eventStream(events: unknown[]): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
  return new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });
}
