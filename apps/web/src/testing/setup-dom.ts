import { vi } from "vitest";

// What jsdom lacks and antd's components ask for (media queries, resize observers, scrolling).
if (typeof window !== "undefined") {
  window.matchMedia ??= (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  window.scrollTo = () => undefined;
}

// The top progress bar fades and removes itself on timers (NProgress.done, then `speed` ms twice): one
// still pending when a test file's jsdom is torn down throws "document is not defined" into the next
// file. No test reads the bar, so it is a no-op here.
vi.mock("nprogress", () => {
  const bar = { configure: () => bar, start: () => bar, done: () => bar, set: () => bar, inc: () => bar };
  return { default: bar };
});
