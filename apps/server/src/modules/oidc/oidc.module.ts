import type { ModuleManifest } from "../../shared/module";
import { oidcRoutes } from "./oidc.routes";
import { discoveryState } from "./providers";

/** Sign-in through OpenID Connect providers. */
export const oidcModule: ModuleManifest = { name: "oidc", routes: oidcRoutes, state: [discoveryState] };
