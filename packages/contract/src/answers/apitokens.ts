import { z } from "zod";
import { time } from "../answers";
import { ApiTokenScopes } from "../apitokens";

/* Answers of the customer's API token endpoints (issue 34 §2). */

export const ApiTokenViewAnswer = z.strictObject({
  id: z.string().describe("the public part of the token (brw_<id>_…)"),
  name: z.string(),
  scopes: z.array(z.enum(ApiTokenScopes)),
  created_at: time(),
  expires_at: time().nullable().describe("null: never expires"),
  last_used_at: time().nullable(),
  last_used_ip: z.string().nullable(),
  revoked_at: time().nullable(),
});

export const CreatedApiTokenAnswer = ApiTokenViewAnswer.extend({
  token: z.string().describe("the secret, answered this once"),
});
