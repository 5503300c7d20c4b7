import type { FastifyReply } from "fastify";
import type { FileDownload } from "../shared/download";

/**
 * Sends a service's file, never sniffed: by default as an attachment, never cached (customers'
 * keys, invoices); an image inline; a public file named by its bytes cached for a year.
 */
export function sendDownload(reply: FastifyReply, file: FileDownload): FastifyReply {
  return reply
    .header("content-type", file.type)
    .header("content-disposition", `${file.disposition ?? "attachment"}; filename="${file.name}"`)
    .header("cache-control", file.cache === "immutable" ? "public, max-age=31536000, immutable" : "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(file.body);
}
