import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The SPA build. `build.manifest` feeds bench/bundle-size.ts; the dev server proxies /api to a
 * locally running server (`npm run dev` at the root, port 8080 by default).
 */
export default defineConfig({
  plugins: [react()],
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
      treeshake: {
        // @burrow/contract is declarations only: a module of it that the app takes nothing from
        // (the zod request schemas, mostly) must not end up in the bundle through the barrel file.
        moduleSideEffects: (id) => !id.includes("/packages/contract/"),
      },
    },
  },
});
