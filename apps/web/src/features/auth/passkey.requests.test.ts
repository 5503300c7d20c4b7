import { AuthApi } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import {
  MFA_PASSKEY_OPTIONS_REQUEST,
  MFA_PASSKEY_REQUEST,
  PASSKEY_OPTIONS_REQUEST,
  PASSKEY_REQUEST,
} from "./passkey.requests";

describe("/login's passkey requests", () => {
  it("are the contract's endpoints", () => {
    for (const [light, ep] of [
      [PASSKEY_OPTIONS_REQUEST, AuthApi.postAuthPasskeyOptions],
      [PASSKEY_REQUEST, AuthApi.postAuthPasskey],
      [MFA_PASSKEY_OPTIONS_REQUEST, AuthApi.postAuthMfaPasskeyOptions],
      [MFA_PASSKEY_REQUEST, AuthApi.postAuthMfaPasskey],
    ] as const) {
      expect(light).toEqual({ method: ep.method, url: ep.url });
    }
  });
});
