import { fileSafeDomain, SslFileNames, type SslFilePart } from "@burrow/contract";
import type { AppContext } from "../../context";
import type { FileDownload } from "../../shared/download";
import { refused } from "../../shared/errors";
import { certPurpose, openKey } from "./secret";
import { myCert } from "./ssl.repository";
import type { SslCertificateRow } from "./ssl.table";

/** The PEM text of one part of a certificate (the key decrypted for its owner only). */
export async function certificateFile(ctx: AppContext, row: SslCertificateRow, part: SslFilePart): Promise<string> {
  if (part === "cert") return row.cert_pem;
  if (part === "chain") return row.chain_pem;
  if (part === "fullchain") return row.cert_pem + row.chain_pem;
  return openKey(ctx, row.key_enc, certPurpose(row.uid, row.domain));
}

/** One part of the customer's certificate as a file (the route sends it). */
export async function certificateDownload(
  ctx: AppContext,
  uid: number,
  id: number,
  part: SslFilePart,
): Promise<FileDownload> {
  const row = await myCert(ctx.db, uid, id);
  if (part === "chain" && !row.chain_pem) throw refused("这张证书没有中间证书（证书链为空）");
  return {
    body: await certificateFile(ctx, row, part),
    name: `${fileSafeDomain(row.domain)}-${SslFileNames[part]}`,
    type: "application/x-pem-file; charset=utf-8",
  };
}
