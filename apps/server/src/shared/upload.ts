/**
 * An upload as a service reads it (http/upload.ts makes one of a multipart request): services
 * check their limits in their own order — counted, locked, the disk checked — before they read
 * the body, and read it only under the limits they pass here.
 */
export interface UploadLimits {
  fileSize: number;
  files: number;
  fields?: number;
  fieldSize?: number;
  parts?: number;
}

/** What a file part's bytes read as when it passes `fileSize` (or its stream fails part-way). */
export const TOO_LARGE = Symbol("too-large");

export type UploadPart =
  | { type: "field"; name: string; value: string; truncated: boolean }
  | { type: "file"; name: string; bytes(): Promise<Buffer | typeof TOO_LARGE> };

export interface UploadReader {
  /** Whether the request carries a multipart body at all. */
  readonly isMultipart: boolean;
  /** The first file part's bytes under `limits`; null when the body has no file. */
  file(limits: UploadLimits): Promise<Buffer | typeof TOO_LARGE | null>;
  /**
   * Every part in order under `limits`; a passed count limit throws an error whose `code` names
   * it (FST_FILES_LIMIT, FST_PARTS_LIMIT, FST_FIELDS_LIMIT, FST_REQ_FILE_TOO_LARGE).
   */
  parts(limits: UploadLimits): AsyncIterable<UploadPart>;
}
