import type { DownloadRow } from "@burrow/contract";
import type { Generated } from "kysely";

/** frpc builds operators publish for customers: the contract's `DownloadRow`, os and arch stored as text. */
export interface ClientDownloadTable extends Omit<DownloadRow, "id" | "os" | "arch"> {
  id: Generated<number>;
  os: string;
  arch: string;
}

export interface DownloadTables {
  client_downloads: ClientDownloadTable;
}
