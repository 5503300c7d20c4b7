import type { PlanFields } from "@burrow/contract";
import type { Generated, Selectable } from "kysely";

/** The settings columns are the contract's `PlanFields`; stored flags are 0/1 integers. */
export interface PlanTable extends PlanFields {
  id: Generated<number>;
  on_sale: number;
  is_default: number;
  created_at: string;
}
export type PlanRow = Selectable<PlanTable>;

/** Owned by the plans module (their store levels are the nodes module's catalogue). */
export interface PlanTables {
  plans: PlanTable;
}
