import { defineConfig } from "vitest/config";

// The real-frp suite (test/real-frp): real frps and frpc built by tools/frp/build.sh, against
// Burrow started as a user starts it. One file per frp version, two at a time (two cores).
export default defineConfig({
  test: {
    include: ["test/real-frp/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    reporters: process.env.VITEST_JSON ? ["default", ["json", { outputFile: process.env.VITEST_JSON }]] : ["default"],
  },
});
