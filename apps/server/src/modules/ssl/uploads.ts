import type { SslCertView, SslUploadBody } from "@burrow/contract";
import type { AppContext } from "../../context";
import { recordEvent } from "../../shared/outbox";
import { transact } from "../../shared/tx";
import { checkUpload } from "./pem";
import { certPurpose, requireSecret, sealKey } from "./secret";
import { certView } from "./ssl.presenter";
import { requireVerified } from "./ssl.service";
import type { SslCertificateRow } from "./ssl.table";

/**
 * Stores a checked certificate as the domain's one certificate (inserted, or replacing the old
 * one in place so that its id — and a renewal's notice trail — stays).
 */
export async function storeCertificate(
  ctx: AppContext,
  uid: number,
  domain: string,
  source: "upload" | "acme",
  checked: ReturnType<typeof checkUpload>,
  notice: string | null,
  now: Date,
  /** an automatic renewal: records "cert.renewed" with the new certificate (the customer's notice) */
  renewed = false,
): Promise<SslCertificateRow> {
  const at = now.toISOString();
  const values = {
    source,
    cert_pem: checked.leafPem,
    chain_pem: checked.chainPem,
    key_enc: await sealKey(ctx, checked.keyPem, certPurpose(uid, domain)),
    names: JSON.stringify(checked.names),
    issuer: checked.issuer,
    fingerprint: checked.fingerprint,
    not_before: checked.notBefore,
    not_after: checked.notAfter,
    notice,
    notice_at: notice ? at : null,
    updated_at: at,
  };
  return transact(ctx, async (trx) => {
    await trx
      .insertInto("ssl_certificates")
      .values({ uid, domain, ...values, created_at: at })
      .onConflict((oc) => oc.columns(["uid", "domain"]).doUpdateSet(values))
      .execute();
    const cert = await trx
      .selectFrom("ssl_certificates")
      .selectAll()
      .where("uid", "=", uid)
      .where("domain", "=", domain)
      .executeTakeFirstOrThrow();
    if (renewed)
      await recordEvent(
        trx,
        "cert.renewed",
        { uid, cert_id: cert.id, domain, expires_at: cert.not_after },
        { key: `cert.renewed:${cert.id}:${cert.not_after}`, now },
      );
    return cert;
  });
}

export async function upload(
  ctx: AppContext,
  uid: number,
  body: SslUploadBody,
  now = new Date(),
): Promise<SslCertView> {
  requireSecret(ctx);
  await requireVerified(ctx, uid, body.domain);
  const checked = checkUpload({
    certificate: body.certificate,
    privateKey: body.private_key,
    domain: body.domain,
    now,
  });
  return certView(await storeCertificate(ctx, uid, body.domain, "upload", checked, null, now), now);
}
