/**
 * A file a service hands back for its route to send (http/download.ts): services return data,
 * only routes speak HTTP.
 */
export interface FileDownload {
  /** the file's bytes, or its text (sent as UTF-8) */
  body: string | Buffer;
  /** the name the browser saves it under */
  name: string;
  /** its media type */
  type: string;
  /** "inline": shown in the page (an image) rather than saved; attachment when left out */
  disposition?: "attachment" | "inline";
  /** "immutable": a public file whose name changes with its bytes (avatars); private, no-store when left out */
  cache?: "private" | "immutable";
}
