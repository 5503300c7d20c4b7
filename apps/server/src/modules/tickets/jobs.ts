import type { JobDef } from "../../shared/jobs";
import { deleteUnsentUploads } from "./attachments";

/** The tickets module's background work (its manifest's jobs, lease-guarded by startJobs). */
export const ticketJobs: JobDef[] = [
  // Hourly: an unsent upload lives between 24 and 25 hours.
  { name: "tickets.unsent-uploads", everyMs: 3600_000, run: (ctx) => deleteUnsentUploads(ctx) },
];
