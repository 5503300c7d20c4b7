import type { PasskeyInfo, TotpDisableBody } from "@burrow/contract";
import { AuthApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";
import { createPasskey } from "@/features/auth/passkey.requests";
import { accountKeys } from "./account.api";

export const passkeyKeys = {
  list: () => [...accountKeys.all, "passkeys"] as const,
};

/** GET /user/passkeys */
export const passkeysQuery = () =>
  queryOptions({
    queryKey: passkeyKeys.list(),
    queryFn: ({ signal }) => api.call(AuthApi.getUserPasskeys, {}, { signal }),
  });

/** Registration: the server's options, the browser's new passkey, then POST /user/passkeys under `name`. */
export async function addPasskey(name: string): Promise<PasskeyInfo> {
  const { options } = await api.call(AuthApi.postUserPasskeysOptions);
  const credential = await createPasskey(options);
  return api.call(AuthApi.postUserPasskeys, { body: { name, credential: credential as never } });
}

/** PATCH /user/passkeys/:id */
export const renamePasskey = (id: number, name: string) =>
  api.call(AuthApi.patchUserPasskey, { params: { id }, body: { name } });

/** POST /user/passkeys/:id/delete: with the password or a TOTP/recovery code */
export const deletePasskey = (id: number, body: TotpDisableBody) =>
  api.call(AuthApi.postUserPasskeyDelete, { params: { id }, body });
