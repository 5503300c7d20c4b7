import type { ModuleManifest } from "../../shared/module";
import { apiTokenCredential } from "./api-token-credential";
import { apitokensRoutes } from "./apitokens.routes";

/** Customers' scoped API tokens (docs/api-tokens.md): their management and their credential kind. */
export const apitokensModule: ModuleManifest = {
  name: "apitokens",
  routes: apitokensRoutes,
  // After auth's session kind: tokens are claimed by their prefix, sessions by their three segments.
  setup: (ctx) => ctx.auth.register(apiTokenCredential(ctx)),
};
