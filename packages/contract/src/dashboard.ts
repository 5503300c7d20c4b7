/** GET /user/dashData: the customer dashboard's figures. */
export interface DashData {
  /** fen */
  balance: number;
  plan: {
    name: string;
    /** null: never expires (the free plan) */
    end_at: string | null;
    /** bytes */
    traffic_quota: number;
    traffic_used: number;
    usable: boolean;
    bandwidth: number;
    tunnel_limit: number;
  } | null;
  tunnels: { total: number; online: number; locked: number };
  /** bytes moved today (Asia/Shanghai) */
  today: { traffic_in: number; traffic_out: number };
  checkin: {
    /** already checked in today */
    today: boolean;
    /** consecutive days up to today (or yesterday when not yet today) */
    streak: number;
    /** bytes earned by check-ins in all */
    total_bonus: number;
  };
}

/** GET /user/dashChart: traffic of the last 7 days (Asia/Shanghai dates, oldest first). */
export interface DashChart {
  days: { date: string; traffic_in: number; traffic_out: number }[];
}

/** GET /user/checkIn: the bonus traffic granted today. */
export interface CheckInResult {
  /** bytes added to the current plan's quota */
  bonus_bytes: number;
  streak: number;
}
