import type { Migration } from "kysely";
import * as foundation from "./2026-11-21T00-00_foundation";

/** Every migration, by sortable name. Add new ones here; never edit or reorder existing ones. */
export const migrations: Record<string, Migration> = {
  "2026-11-21T00-00_foundation": foundation,
};
