import { afterAll } from "vitest";

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

// The top progress bar removes itself on timers after NProgress.done: one still running when a
// test file's jsdom is torn down throws "document is not defined" into the next file. A file that
// showed the bar waits for it to go (about 0.5 s).
afterAll(async () => {
  for (let i = 0; i < 40 && typeof document !== "undefined" && document.getElementById("nprogress"); i++)
    await new Promise((r) => setTimeout(r, 50));
});
