import { z } from "zod";
import { int, time } from "../answers";
import { DownloadArches, DownloadOses } from "../downloads";

/* Answers of the frpc downloads endpoints. */

export const DownloadRowAnswer = z.strictObject({
  id: int(),
  os: z.enum(DownloadOses),
  arch: z.enum(DownloadArches),
  version: z.string(),
  url: z.string(),
  checksum: z.string().describe("SHA-256, lower-case hex"),
  note: z.string(),
  sort: int(),
  mirrored: z.boolean().describe("built and hosted by the console (npm run admin -- frp-mirror)"),
  size: int().nullable().describe("bytes, when known"),
  created_at: time(),
});
