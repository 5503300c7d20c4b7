import type { Generated } from "kysely";

/** Home content entries (SPEC "Home content config"); addon is JSON text. */
export interface HomeConfigTable {
  id: Generated<number>;
  data_type: number;
  title: string;
  title_color: string;
  content: string;
  link: string;
  sort: number;
  addon: string;
  created_at: string;
  updated_at: string;
}

export interface HomeTables {
  home_configs: HomeConfigTable;
}
