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
    // Files share their worker's module cache: the app's import (most of a file's set-up) is paid
    // once per worker, not once per file. Each file still builds its own app on its own database
    // (createTestApp), and nothing in src keeps state at module level that a test depends on;
    // test/setup-file.ts puts back what a file may leave behind.
    isolate: false,
    setupFiles: ["test/setup-file.ts"],
    reporters: process.env.VITEST_JSON ? ["default", ["json", { outputFile: process.env.VITEST_JSON }]] : ["default"],
  },
});
