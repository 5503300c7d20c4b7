import path from "node:path";
import { defineConfig } from "@playwright/test";
import { BASE_URL, TMP_DIR } from "./fixtures/env";

/** Journeys that change or count what every customer and operator sees: never beside another. */
const SITE_WIDE = [
  "affiliate",
  "audit",
  "catalog",
  "home",
  "oidc",
  "oidc-secret",
  "outbox",
  "overview-queues",
  "setup-checklist",
  "site-settings",
  "uptime",
  "verify",
].map((name) => `**/${name}.spec.ts`);

/**
 * Browser tests against the real server (started by global-setup.ts) and the built web app, in
 * Debian's Chromium. Never run `playwright install`: the browser comes from the system.
 */
export default defineConfig({
  testDir: "./specs",
  globalSetup: "./global-setup.ts",
  globalTeardown: "./global-teardown.ts",
  // Under E2E_TMP_DIR like the server's files: a run empties its output directory as it starts,
  // which would take another run's screenshots and traces with it.
  outputDir: path.join(TMP_DIR, "test-results"),
  // Files may run side by side (tests within a file in order): every journey makes its own customer,
  // node and names. The journeys that change what the whole site shows (settings, sign-in providers,
  // the dashboard's notices, maintenance) or read site-wide lists and counts run afterwards, alone.
  fullyParallel: false,
  // One at a time by default: on two cores two workers were no faster (the renderers are CPU-bound)
  // and missed expectations; a larger machine may set E2E_WORKERS.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  projects: [
    { name: "parallel", testIgnore: SITE_WIDE },
    { name: "site-wide", testMatch: SITE_WIDE, workers: 1, dependencies: ["parallel"] },
  ],
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 45_000,
  expect: { timeout: 8_000 },
  // The root test script asks for the JSON report at PLAYWRIGHT_JSON_OUTPUT_NAME.
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? path.join(TMP_DIR, "results.json") }],
  ],
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    headless: true,
    locale: "zh-CN",
    timezoneId: "Asia/Shanghai",
    viewport: { width: 1400, height: 900 },
    // The console turns its transitions and chart animations off for it (lib/motion.ts): clicks need
    // not wait for a dialog to finish moving, and the renderer draws fewer frames.
    reducedMotion: "reduce",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
