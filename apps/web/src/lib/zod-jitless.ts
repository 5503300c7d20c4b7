import { z } from "zod";

// zod compiles object parsers with `new Function` unless told not to; the console's
// Content-Security-Policy has no 'unsafe-eval', and the probe alone is reported as a violation.
// Imported first by main.tsx, before any schema is used.
z.config({ jitless: true });
