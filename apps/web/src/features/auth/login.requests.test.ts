import { AuthApi, SiteApi } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { LOGIN_REQUEST, SITE_REQUEST } from "./login.requests";

describe("/login's light requests", () => {
  it("are the contract's endpoints", () => {
    expect(LOGIN_REQUEST).toEqual({ method: AuthApi.postAuthLogin.method, url: AuthApi.postAuthLogin.url });
    expect(SITE_REQUEST).toEqual({ method: SiteApi.getPublicSite.method, url: SiteApi.getPublicSite.url });
  });
});
