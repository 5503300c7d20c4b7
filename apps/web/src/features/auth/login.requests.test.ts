import { AuthApi, OidcApi, SiteApi } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import {
  LOGIN_REQUEST,
  MFA_REQUEST,
  MFA_SETUP_CONFIRM_REQUEST,
  MFA_SETUP_REQUEST,
  OIDC_PROVIDERS_REQUEST,
  OIDC_START_REQUEST,
  SITE_REQUEST,
} from "./login.requests";

describe("/login's light requests", () => {
  it("are the contract's endpoints", () => {
    expect(LOGIN_REQUEST).toEqual({ method: AuthApi.postAuthLogin.method, url: AuthApi.postAuthLogin.url });
    expect(SITE_REQUEST).toEqual({ method: SiteApi.getPublicSite.method, url: SiteApi.getPublicSite.url });
    for (const [light, ep] of [
      [OIDC_PROVIDERS_REQUEST, OidcApi.getAuthOidcProviders],
      [OIDC_START_REQUEST, OidcApi.getAuthOidcStart],
      [MFA_REQUEST, AuthApi.postAuthMfa],
      [MFA_SETUP_REQUEST, AuthApi.postAuthMfaSetup],
      [MFA_SETUP_CONFIRM_REQUEST, AuthApi.postAuthMfaSetupConfirm],
    ] as const) {
      expect(light).toEqual({ method: ep.method, url: ep.url });
    }
  });
});
