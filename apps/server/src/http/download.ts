import type { FastifyReply } from "fastify";
import type { FileDownload } from "../shared/download";

/** Sends a service's file as an attachment, never cached or sniffed (customers' keys, invoices). */
export function sendDownload(reply: FastifyReply, file: FileDownload): FastifyReply {
  return reply
    .header("content-type", file.type)
    .header("content-disposition", `attachment; filename="${file.name}"`)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(file.body);
}
