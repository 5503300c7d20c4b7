import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every table has one owner: the module whose `*.table.ts` declares it (settings and job leases
 * belong to shared/). Writes go through the owner's exported functions; a module may read another
 * module's table only where listed below (the reads that stand today: each one removed from the
 * code must be removed here, and a new one fails until it goes through the owner instead).
 */
const SRC = path.resolve(import.meta.dirname, "../src");

/** Writes outside the owner that are allowed, with the reason. */
const WRITE_EXCEPTIONS: Record<string, string> = {
  // lockUser's no-op UPDATE is a row lock on the customer, used by every money path; it changes nothing.
  "shared/locks.ts users updateTable": "row lock",
};

/** Writes outside the owner still to be routed through it ("file table verb"). */
const PENDING_WRITES = new Set<string>([]);

/** Cross-module reads that stand today ("module table"). */
const ALLOWED_READS = new Set<string>([
  "dashboard tunnel_traffic",
  "dashboard tunnels",
  "dashboard users",
  "frp nodes",
  "frp plan_levels",
  "frp tunnels",
  "frp users",
  "marketing orders",
  "marketing plans",
  "marketing users",
  "nodes node_runtime",
  "nodes plans",
  "nodes tunnel_domains",
  "nodes tunnels",
  "orders balance_ledger",
  "orders plans",
  "orders users",
  "plans gift_cards",
  "plans orders",
  "plans plan_levels",
  "plans subscriptions",
  "site settings",
  "subscriptions plan_levels",
  "subscriptions plans",
  "subscriptions users",
  "traffic nodes",
  "traffic proxy_counters",
  "traffic tunnel_conns",
  "traffic tunnel_traffic",
  "traffic tunnels",
  "traffic users",
  "tunnels nodes",
  "tunnels plan_levels",
  "tunnels proxy_counters",
  "tunnels users",
  "usermgr users",
]);

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "migrations" ? [] : walk(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

const rel = (file: string) => path.relative(SRC, file).split(path.sep).join("/");
/** "modules/orders/x.ts" → "orders"; "shared/x.ts" → "shared". */
const moduleOf = (file: string) => {
  const parts = rel(file).split("/");
  return parts[0] === "modules" ? parts[1] : parts[0];
};

/** table → owning module, from each `*Tables` interface of the modules' table files and db/schema.ts. */
function ownerMap(): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  const add = (table: string, owner: string) => owners.set(table, [...(owners.get(table) ?? []), owner]);
  for (const file of walk(path.join(SRC, "modules")).filter((f) => f.endsWith(".table.ts"))) {
    const text = fs.readFileSync(file, "utf8");
    for (const block of text.matchAll(/export interface \w+Tables \{([^}]*)\}/g))
      for (const m of block[1].matchAll(/^\s*(\w+): \w+;/gm)) add(m[1], moduleOf(file));
  }
  const schema = fs.readFileSync(path.join(SRC, "db/schema.ts"), "utf8");
  const body = /export interface DB[^{]*\{([^}]*)\}/.exec(schema)?.[1] ?? "";
  for (const m of body.matchAll(/^\s*(\w+): \w+;/gm)) add(m[1], "shared");
  return owners;
}

const QUERY = /\b(selectFrom|updateTable|insertInto|deleteFrom|innerJoin|leftJoin)\(\s*"(\w+)/g;
const WRITES = new Set(["updateTable", "insertInto", "deleteFrom"]);

describe("table owners", () => {
  const owners = ownerMap();
  const files = [...walk(path.join(SRC, "modules")), ...walk(path.join(SRC, "shared"))];
  const writes = new Set<string>();
  const reads = new Set<string>();
  const unknown = new Set<string>();
  for (const file of files) {
    const mod = moduleOf(file);
    for (const m of fs.readFileSync(file, "utf8").matchAll(QUERY)) {
      const [, verb, table] = m;
      const owner = owners.get(table)?.[0];
      if (!owner) unknown.add(`${rel(file)}: ${table}`);
      else if (owner !== mod) {
        if (WRITES.has(verb)) writes.add(`${rel(file)} ${table} ${verb}`);
        else reads.add(`${mod} ${table}`);
      }
    }
  }

  it("gives every table exactly one owner, and every queried table has one", () => {
    const shared = [...owners].filter(([, o]) => o.length !== 1).map(([t, o]) => `${t}: ${o.join(", ")}`);
    expect(shared).toEqual([]);
    expect(owners.size).toBeGreaterThan(20);
    expect([...unknown]).toEqual([]);
  });

  it("lets only the owner write a table", () => {
    const outside = [...writes].filter((w) => !(w in WRITE_EXCEPTIONS)).sort();
    expect(outside).toEqual([...PENDING_WRITES].sort());
  });

  it("reads another module's table only where listed", () => {
    expect([...reads].sort()).toEqual([...ALLOWED_READS].sort());
  });
});
