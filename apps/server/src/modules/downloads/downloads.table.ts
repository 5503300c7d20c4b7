import type { DownloadRow } from "@burrow/contract";
import type { Generated } from "kysely";

/**
 * frpc builds for customers: the contract's `DownloadRow`, os and arch stored as text. A row the
 * console mirrored (`npm run admin -- frp-mirror`) names its file under DATA_DIR/mirror/frp/<version>/;
 * hand-typed rows have mirror_file and size null.
 */
export interface ClientDownloadTable extends Omit<DownloadRow, "id" | "os" | "arch" | "mirrored" | "size"> {
  id: Generated<number>;
  os: string;
  arch: string;
  mirror_file: string | null;
  size: number | null;
}

export interface DownloadTables {
  client_downloads: ClientDownloadTable;
}
