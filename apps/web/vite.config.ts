import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { computeStamp, writeStamp } from "../../scripts/build-stamp.mjs";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Every `vite build` is a production build, whatever NODE_ENV the shell has (the README's default
 * is development): Vite reads NODE_ENV after the config hooks, so setting it here selects React's
 * and antd's production code. The build is then stamped with what it was made from
 * (scripts/build-stamp.mjs), computed before bundling so an edit made during the build counts as
 * not built.
 */
function productionBuild(): Plugin {
  let stamp = "";
  let outDir = "";
  return {
    name: "burrow-production-build",
    apply: "build",
    config() {
      process.env.NODE_ENV = "production";
      return { mode: "production" };
    },
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      stamp = computeStamp(repoRoot);
    },
    closeBundle() {
      writeStamp(outDir, stamp);
    },
  };
}

/**
 * The SPA build. `build.manifest` feeds bench/bundle-size.ts; the dev server proxies /api to a
 * locally running server (`npm run dev` at the root, port 8080 by default).
 */
export default defineConfig({
  plugins: [react(), productionBuild()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: { "/api": { target: process.env.VITE_DEV_API_TARGET ?? "http://127.0.0.1:8080", changeOrigin: true } },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    rollupOptions: {
      output: {
        // React out of the entry chunk (cached apart from the app's own code, which changes more
        // often), the router apart from React (a signed-out /login does without it), and zrender
        // (echarts' renderer) out of the lazily loaded chart chunk.
        manualChunks(id) {
          if (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id)) return "react";
          // The router in a chunk of its own: /login's first load does without it (app/login-host.tsx).
          if (/[\\/]node_modules[\\/]react-router[\\/]/.test(id)) return "router";
          if (/[\\/]node_modules[\\/]zrender[\\/]/.test(id)) return "zrender";
          return undefined;
        },
      },
      onwarn(warning, warn) {
        // zod's sources carry explanatory comments that mention `@__PURE__` in a position Rollup
        // cannot use as an annotation; Rollup drops those comments, the code is unchanged. Known
        // and benign, so not shown to whoever builds; every other warning is.
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("/node_modules/zod/")) return;
        warn(warning);
      },
      treeshake: {
        // @burrow/contract is declarations only: a module of it that the app takes nothing from
        // (the zod request schemas, mostly) must not end up in the bundle through the barrel file.
        moduleSideEffects: (id) => !id.includes("/packages/contract/"),
      },
    },
  },
});
