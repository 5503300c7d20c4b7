import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config";

/**
 * Unit tests cover pure logic only (menu access, form rules, formatting), so they run in Node;
 * test/ holds the build's own tests (one real build).
 */
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: "node",
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // The root test script collects results from VITEST_JSON.
      reporters: process.env.VITEST_JSON ? ["default", ["json", { outputFile: process.env.VITEST_JSON }]] : ["default"],
    },
  }),
);
