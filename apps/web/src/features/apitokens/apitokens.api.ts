import { ApitokensApi, type CreateApiTokenBody } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const apiTokenKeys = { all: ["apiTokens"] as const };

/** GET /user/apiToken: the customer's tokens, newest first (never the secrets). */
export const apiTokensQuery = () =>
  queryOptions({
    queryKey: apiTokenKeys.all,
    queryFn: ({ signal }) => api.call(ApitokensApi.getUserApiToken, {}, { signal }),
  });

/** POST /user/apiToken: the answer holds the token itself, this once. */
export const createApiToken = (body: CreateApiTokenBody) => api.call(ApitokensApi.postUserApiToken, { body });

/** DELETE /user/apiToken/:id: the token's next call is refused. */
export const revokeApiToken = (id: string) => api.call(ApitokensApi.deleteUserApiTokenId, { params: { id } });
