import { z } from "zod";
import { ApiTokenViewAnswer, CreatedApiTokenAnswer } from "../answers/apitokens";
import { ApiTokenIdParams, type ApiTokenView, CreateApiTokenBody, type CreatedApiToken } from "../apitokens";
import { endpoint } from "../endpoint";

/**
 * The customer's own API tokens. Console sessions only (no token scope): a token can neither list
 * nor mint nor revoke tokens.
 */
export const ApitokensApi = {
  getUserApiToken: endpoint<ApiTokenView[]>()({
    method: "GET",
    url: "/user/apiToken",
    access: "user",
    answer: z.array(ApiTokenViewAnswer),
    summary: "the customer's API tokens, newest first (revoked ones too; never the secret)",
  }),
  postUserApiToken: endpoint<CreatedApiToken>()({
    method: "POST",
    url: "/user/apiToken",
    access: "user",
    answer: CreatedApiTokenAnswer,
    summary: "creates an API token with scopes and an optional expiry; the answer holds the token, shown once",
    body: CreateApiTokenBody,
  }),
  deleteUserApiTokenId: endpoint<ApiTokenView>()({
    method: "DELETE",
    url: "/user/apiToken/:id",
    access: "user",
    answer: ApiTokenViewAnswer,
    summary: "revokes one of the customer's API tokens; its next call is refused",
    params: ApiTokenIdParams,
  }),
} as const;
