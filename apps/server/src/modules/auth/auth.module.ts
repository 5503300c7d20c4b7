import type { ModuleManifest } from "../../shared/module";
import { authRoutes } from "./auth.routes";
import { sessionCredential } from "./sessions";

/** Sign-in, sign-up, sessions and credentials. */
export const authModule: ModuleManifest = {
  name: "auth",
  routes: authRoutes,
  // The session JWT's credential kind (shared/auth.ts); API tokens register theirs from their module.
  setup: (ctx) => ctx.auth.register(sessionCredential(ctx)),
};
