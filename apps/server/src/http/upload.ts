import type { MultipartFile } from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { TOO_LARGE, type UploadLimits, type UploadPart, type UploadReader } from "../shared/upload";

/** A file part's bytes, or TOO_LARGE when it passed the size limit (a failed read counts as that). */
async function bytesOf(file: MultipartFile): Promise<Buffer | typeof TOO_LARGE> {
  const buf = await file.toBuffer().catch(() => null);
  return buf === null || file.file.truncated ? TOO_LARGE : buf;
}

/** The multipart body of a request, read only when and as the service asks (shared/upload.ts). */
export function uploadOf(req: FastifyRequest): UploadReader {
  return {
    isMultipart: req.isMultipart(),
    async file(limits: UploadLimits) {
      const file = await req.file({ limits });
      return file ? bytesOf(file) : null;
    },
    async *parts(limits: UploadLimits): AsyncIterable<UploadPart> {
      for await (const part of req.parts({ limits })) {
        if (part.type === "field")
          yield { type: "field", name: part.fieldname, value: String(part.value), truncated: part.valueTruncated };
        else yield { type: "file", name: part.fieldname, bytes: () => bytesOf(part) };
      }
    },
  };
}
