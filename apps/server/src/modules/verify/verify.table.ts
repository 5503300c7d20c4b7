/** One user's identity verification (the current request); see the verifications migration. */
export interface VerificationTable {
  uid: number;
  /** ProcessStatus: 1 done, 2 processing, 3 rejected */
  status: number;
  real_name_masked: string;
  id_number_masked: string;
  /** HMAC-SHA256 of the number under the server's secret; NULL once rejected or reset (releases the number) */
  id_hash: string | null;
  reason: string | null;
  /** "sandbox" or "redirect" */
  provider: string;
  /** the id of the provider request awaiting its signed result */
  request_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface VerifyTables {
  verifications: VerificationTable;
}
