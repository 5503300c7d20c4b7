import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config";

/**
 * Unit tests of pure logic (menu access, form rules, formatting) run in Node; component tests
 * (`*.test.tsx`, rendered with the console's providers: src/testing/page-harness.tsx) ask for jsdom
 * in their first line; test/ holds the build's own tests (one real build).
 */
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: "node",
      include: ["src/**/*.test.ts", "src/**/*.test.tsx", "test/**/*.test.ts"],
      setupFiles: ["src/testing/setup-dom.ts"],
      // A component test renders antd in jsdom and types into it: seconds, and tens of seconds on a
      // machine that runs the API suites beside it (CI: one such test took 41 s of 60).
      testTimeout: 120_000,
      // The root test script collects results from VITEST_JSON.
      reporters: process.env.VITEST_JSON ? ["default", ["json", { outputFile: process.env.VITEST_JSON }]] : ["default"],
    },
  }),
);
