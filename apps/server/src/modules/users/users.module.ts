import type { ModuleManifest } from "../../shared/module";
import { usersRoutes } from "./users.routes";

/** A customer's own profile, avatar and balance. */
export const usersModule: ModuleManifest = { name: "users", routes: usersRoutes };
