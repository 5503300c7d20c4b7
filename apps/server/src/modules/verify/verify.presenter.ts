/** What customers and operators see of a verification row. */
import { createHash } from "node:crypto";
import { ProcessStatus } from "@burrow/contract";
import type { VerificationTable } from "./verify.table";

export function present(row: VerificationTable | undefined) {
  return {
    status: row?.status ?? ProcessStatus.None,
    real_name: row?.real_name_masked ?? null,
    id_number: row?.id_number_masked ?? null,
    reason: row?.reason ?? null,
    updated_at: row?.updated_at ?? null,
  };
}

/**
 * The submission an operator decides on: changes with every submission (a new sealed identity,
 * new files, a new time), so a decision carrying it applies to what the reviewer saw or to nothing.
 */
export function reviewVersion(
  row: Pick<
    VerificationTable,
    "uid" | "status" | "updated_at" | "claim_hash" | "evidence_identity" | "evidence_photos" | "request_id"
  >,
): string {
  const parts = [
    row.uid,
    row.status,
    row.updated_at,
    row.claim_hash,
    row.evidence_identity,
    row.evidence_photos,
    row.request_id,
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}
