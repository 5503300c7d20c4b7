import { z } from "zod";
import { int } from "../answers";

/* Answers of the public site endpoints (issue 34 §2). */

export const SiteInfoAnswer = z.strictObject({
  brand: z.string(),
  cloud_provider: z.string(),
  police_no: z.string(),
  icp_no: z.string(),
  license_no: z.string(),
  copyright_start: int().describe("year"),
  public_url: z.string().nullable().describe("PUBLIC_URL, null when unset"),
});

export const HealthAnswer = z.strictObject({ status: z.literal("ok") });
