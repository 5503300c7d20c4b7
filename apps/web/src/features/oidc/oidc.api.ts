import type { CreateOidcProviderBody, OidcCallbackBody, OidcLinkBody, UpdateOidcProviderBody } from "@burrow/contract";
import { OidcApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { rememberIntent } from "./intent";

export const oidcKeys = {
  all: ["oidc"] as const,
  providers: () => [...oidcKeys.all, "providers"] as const,
  bindings: () => [...oidcKeys.all, "bindings"] as const,
  admin: () => [...oidcKeys.all, "admin"] as const,
};

/** GET /auth/oidc/providers: the enabled providers for the sign-in buttons (id and name). */
export const oidcProvidersQuery = () =>
  queryOptions({
    queryKey: oidcKeys.providers(),
    queryFn: ({ signal }) => api.call(OidcApi.getAuthOidcProviders, {}, { signal }),
    staleTime: 60_000,
  });

/** GET /user/oidc: the signed-in customer's bindings. */
export const oidcBindingsQuery = () =>
  queryOptions({
    queryKey: oidcKeys.bindings(),
    queryFn: ({ signal }) => api.call(OidcApi.getUserOidc, {}, { signal }),
  });

/** GET /super/oidc */
export const adminOidcQuery = () =>
  queryOptions({
    queryKey: oidcKeys.admin(),
    queryFn: ({ signal }) => api.call(OidcApi.getSuperOidc, {}, { signal }),
  });

export { takeIntent } from "./intent";

/** Starts binding a provider to the signed-in account and sends the browser to the provider. */
export async function startOidcBind(provider: number): Promise<void> {
  const { url } = await api.call(OidcApi.postUserOidcBind, { body: { provider } });
  rememberIntent("bind");
  window.location.assign(url);
}

/** POST /auth/oidc/callback with the provider's answer */
export const finishOidc = (body: OidcCallbackBody) =>
  api.call(OidcApi.postAuthOidcCallback, { body }, { skipAuthRedirect: true });
/** POST /auth/oidc/link */
export const linkOidc = (body: OidcLinkBody) => api.call(OidcApi.postAuthOidcLink, { body });
/** POST /auth/oidc/register */
export const registerOidc = (ticket: string) => api.call(OidcApi.postAuthOidcRegister, { body: { ticket } });
/** DELETE /user/oidc */
export const unbindOidc = (provider: number) => api.call(OidcApi.deleteUserOidc, { body: { provider } });

/** POST /super/oidc */
export const createOidcProvider = (body: CreateOidcProviderBody) => api.call(OidcApi.postSuperOidc, { body });
/** PATCH /super/oidc */
export const updateOidcProvider = (body: UpdateOidcProviderBody) => api.call(OidcApi.patchSuperOidc, { body });
/** DELETE /super/oidc */
export const deleteOidcProvider = (id: number) => api.call(OidcApi.deleteSuperOidc, { body: { id } });
