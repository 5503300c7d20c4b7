export interface CheckinTable {
  uid: number;
  /** Asia/Shanghai YYYY-MM-DD */
  day: string;
  bonus_bytes: number;
  created_at: string;
}

export interface DashboardTables {
  checkins: CheckinTable;
}
