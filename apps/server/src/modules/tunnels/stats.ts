import { TunnelStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { onConnection, type Read } from "../../shared/large-memo";

/** Live tunnels (not deleted) and those connected now, for the operator's overview. */
export async function tunnelCounts(
  db: Kysely<DB>,
  read: Read = onConnection(db),
): Promise<{ total: number; online: number }> {
  const rows = await read(
    db
      .selectFrom("tunnels")
      .select(["status", (eb) => eb.fn.countAll<number | string>().as("n")])
      .groupBy("status")
      .compile(),
  );
  let total = 0;
  let online = 0;
  for (const r of rows) {
    if (r.status === TunnelStatus.Deleted) continue;
    total += Number(r.n);
    if (r.status === TunnelStatus.Connected) online += Number(r.n);
  }
  return { total, online };
}

/** Bytes (in + out) per Asia/Shanghai day in [from, to] (YYYY-MM-DD); days without traffic are absent. */
export async function trafficByDay(db: Kysely<DB>, from: string, to: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("tunnel_traffic")
    .select(["day", (eb) => eb.fn.sum<number | string>(eb("traffic_in", "+", eb.ref("traffic_out"))).as("bytes")])
    .where("day", ">=", from)
    .where("day", "<=", to)
    .groupBy("day")
    .execute();
  return new Map(rows.map((r) => [r.day, Number(r.bytes ?? 0)]));
}

/** Bytes (in + out) of one Asia/Shanghai day, and how many tunnel rows they sum. */
export async function trafficOfDay(
  db: Kysely<DB>,
  day: string,
  read: Read = onConnection(db),
): Promise<{ bytes: number; rows: number }> {
  const [r] = await read(
    db
      .selectFrom("tunnel_traffic")
      .select((eb) => [
        eb.fn.sum<number | string>(eb("traffic_in", "+", eb.ref("traffic_out"))).as("bytes"),
        eb.fn.countAll<number | string>().as("rows"),
      ])
      .where("day", "=", day)
      .compile(),
  );
  return { bytes: Number(r.bytes ?? 0), rows: Number(r.rows) };
}
