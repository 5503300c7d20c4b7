import { AuthApi, OidcApi, SiteApi } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { LOGIN_REQUEST, OIDC_PROVIDERS_REQUEST, OIDC_START_REQUEST, SITE_REQUEST } from "./login.requests";

describe("/login's light requests", () => {
  it("are the contract's endpoints", () => {
    expect(LOGIN_REQUEST).toEqual({ method: AuthApi.postAuthLogin.method, url: AuthApi.postAuthLogin.url });
    expect(SITE_REQUEST).toEqual({ method: SiteApi.getPublicSite.method, url: SiteApi.getPublicSite.url });
    for (const [light, ep] of [
      [OIDC_PROVIDERS_REQUEST, OidcApi.getAuthOidcProviders],
      [OIDC_START_REQUEST, OidcApi.getAuthOidcStart],
    ] as const) {
      expect(light).toEqual({ method: ep.method, url: ep.url });
    }
  });
});
