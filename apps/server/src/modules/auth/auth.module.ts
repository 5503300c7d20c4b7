import type { ModuleManifest } from "../../shared/module";
import { authRoutes } from "./auth.routes";

/** Sign-in, sign-up, sessions and credentials. */
export const authModule: ModuleManifest = { name: "auth", routes: authRoutes };
