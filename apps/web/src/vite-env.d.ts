/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API base; defaults to "/api" on the same origin (DESIGN.md §2). */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
