// Types for build-stamp.mjs, imported by apps/web/vite.config.ts and a server test.
export declare const STAMP_FILE: string;
export declare const STAMP_INPUTS: string[];
export declare function computeStamp(root: string): string;
export declare function readStamp(distDir: string): string | undefined;
export declare function writeStamp(distDir: string, stamp: string): void;
export declare function buildReason(root: string, distDir: string): string | undefined;
