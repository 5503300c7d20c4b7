/** One user's identity verification (the current request); see the verifications migration. */
export interface VerificationTable {
  uid: number;
  /** ProcessStatus: 1 done, 2 processing, 3 rejected */
  status: number;
  real_name_masked: string;
  id_number_masked: string;
  /**
   * The hold (unique): HMAC-SHA256 of the number under the server's secret, set once done, or
   * until `held_until` while a redirect provider's request is processing; NULL otherwise (a
   * manual review, an expired hold, rejected), so that no unfinished request locks the owner out.
   */
  id_hash: string | null;
  /** the same hash of the number this request claims, while processing or done (not unique: contested numbers) */
  claim_hash: string | null;
  /**
   * HMAC-SHA256 of the normalised full name (keyed-hash.ts), taken with the submission and kept
   * while processing or done: what a payee name is compared with (verify/identity.ts). NULL for a
   * request rejected, and for one done before the column existed (compared masked, flagged).
   */
  name_hash: string | null;
  /** when a processing redirect request's hold ends (another account may then take the number) */
  held_until: string | null;
  reason: string | null;
  /** "sandbox", "manual" or "redirect" */
  provider: string;
  /** the id of the provider request awaiting its signed result */
  request_id: string | null;
  /**
   * A manual review's evidence (evidence.ts), emptied with its files at the decision or when it
   * expires: the request's random AES-256 key sealed under the server's evidence key (bound to
   * the uid), the {real_name, id_number} JSON sealed under that key, the photos' list (JSON
   * [{kind, file, mime, size}], encrypted files under DATA_DIR/uploads/verify), and its end.
   */
  evidence_key: string | null;
  evidence_identity: string | null;
  evidence_photos: string | null;
  evidence_expires_at: string | null;
  /**
   * JSON {claim_hash: ISO time}: when this account's redirect holds on numbers started, kept a day,
   * so a hold is not renewed by resubmitting (whatever was submitted in between).
   */
  hold_starts: string | null;
  /**
   * JSON [{uid, at, provider}]: other accounts whose submission of this request's number was
   * refused because this request held it (shown to operators as contested); cleared with the claim.
   */
  refused_claims: string | null;
  created_at: string;
  updated_at: string;
}

export interface VerifyTables {
  verifications: VerificationTable;
}
