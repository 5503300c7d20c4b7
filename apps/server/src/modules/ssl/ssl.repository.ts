import { coveringWildcard, type SslStep } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import { notFound } from "../../shared/errors";
import type { SslCertificateRow, SslOrderRow } from "./ssl.table";

/** Steps that end an issue. */
export const ENDED: SslStep[] = ["issued", "failed", "cancelled"];

/** The customer's unended issue for `domain`, if any. */
export const openIssue = (db: Kysely<DB>, uid: number, domain: string) =>
  db
    .selectFrom("ssl_orders")
    .select("id")
    .where("uid", "=", uid)
    .where("domain", "=", domain)
    .where("step", "not in", ENDED)
    .executeTakeFirst();

/** One of the customer's rows of an ssl table; another customer's is "not found", like a missing one. */
async function own<T extends "ssl_certificates" | "ssl_orders">(
  db: Kysely<DB>,
  table: T,
  uid: number,
  id: number,
): Promise<T extends "ssl_orders" ? SslOrderRow : SslCertificateRow> {
  const row = await db
    .selectFrom(table as "ssl_orders")
    .selectAll()
    .where("id", "=", id)
    .where("uid", "=", uid)
    .executeTakeFirst();
  if (!row) throw notFound(table === "ssl_orders" ? "签发记录" : "证书");
  return row as never;
}
export const myCert = (db: Kysely<DB>, uid: number, id: number) => own(db, "ssl_certificates", uid, id);
export const myOrder = (db: Kysely<DB>, uid: number, id: number) => own(db, "ssl_orders", uid, id);

/**
 * For the tunnels module's frpc config: the first of `domains` (the customer's) that has a
 * certificate valid at `now`, or undefined. Only names, no key material, leave this module.
 */
export async function certificateForDomains(
  db: Kysely<DB>,
  uid: number,
  domains: string[],
  now = new Date(),
): Promise<{ domain: string; not_after: string } | undefined> {
  if (!domains.length) return undefined;
  // A name one label under a wildcard is served by the wildcard's certificate when it has none of its own.
  const wildcards = domains.map(coveringWildcard).filter((w): w is string => w !== null);
  const rows = await db
    .selectFrom("ssl_certificates")
    .select(["domain", "not_after"])
    .where("uid", "=", uid)
    .where("domain", "in", [...domains, ...wildcards])
    .where("not_after", ">", now.toISOString())
    .execute();
  const of = (name: string | null) => rows.find((r) => r.domain === name);
  return domains.map((d) => of(d) ?? of(coveringWildcard(d))).find(Boolean);
}
