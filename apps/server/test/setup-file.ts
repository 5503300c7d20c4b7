import { afterAll, vi } from "vitest";

// The server's test files share their worker's module cache (isolate: false in vitest.config.ts:
// importing the app once per worker, not once per file, saves minutes a pass). What a file may leave
// behind in that shared process is put back after it: a fake clock.
afterAll(() => {
  vi.useRealTimers();
});
