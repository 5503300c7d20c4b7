import type { ReachVerdict } from "@burrow/contract";
import type { Generated } from "kysely";

/** One 外网检测 a customer ran (the hourly limit counts these). */
export interface ReachCheckTable {
  id: Generated<number>;
  uid: number;
  tun_id: number;
  /** null while the check runs */
  verdict: ReachVerdict | null;
  created_at: string;
}

/** Owned by the reach module. */
export interface ReachTables {
  reach_checks: ReachCheckTable;
}
