import type { Generated } from "kysely";

/** frpc builds operators publish for customers. */
export interface ClientDownloadTable {
  id: Generated<number>;
  os: string;
  arch: string;
  version: string;
  url: string;
  /** SHA-256, lower-case hex */
  checksum: string;
  note: string;
  sort: number;
  created_at: string;
}

export interface DownloadTables {
  client_downloads: ClientDownloadTable;
}
