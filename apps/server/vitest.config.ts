import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // real frps/frpc: a suite of its own (vitest.real-frp.config.ts), run once, not per database
    exclude: ["test/real-frp/**", "**/node_modules/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two test files at a time, each with its own database.
    maxWorkers: 2,
    reporters: process.env.VITEST_JSON ? ["default", ["json", { outputFile: process.env.VITEST_JSON }]] : ["default"],
  },
});
