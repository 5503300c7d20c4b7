import fs from "node:fs";
import path from "node:path";
import { Endpoints } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODULES } from "../src/app";
import type { ModuleManifest } from "../src/shared/module";
import { createTestApp, type TestApp } from "./harness";

/**
 * One manifest per module (shared/module.ts), walked by app.ts: every folder under modules/ has
 * `<name>.module.ts` and is in the list; per-app state is the manifests' (no WeakMap keyed by the
 * context); and every queue of work waiting for an operator is counted on the overview.
 */
const MODULES_DIR = path.resolve(import.meta.dirname, "../src/modules");
const folders = fs.readdirSync(MODULES_DIR).filter((f) => fs.statSync(path.join(MODULES_DIR, f)).isDirectory());

/**
 * Modules where customers send something and operators write too, yet nothing waits for an
 * operator: what the customer sends takes effect on its own. A module that gets a real queue
 * (customers ask, an operator decides) must declare a waiting counter instead of being listed.
 */
const NO_QUEUE: Record<string, string> = {
  frp: "强制下线 takes effect at once (its customer frees their own session); operators poll nodes on their own",
  domains: "a customer verifies a domain through DNS; operators unbind on their own initiative",
  marketing: "a gift card is redeemed at once; codes and promotions are operators' own",
  oidc: "binding a provider needs no operator; operators configure providers",
  orders: "orders are paid through the gateway; refunds are operators' own",
  tunnels: "tunnels need no approval; illegal-use rules and locks are operators' own",
  uptime: "a customer's public status page takes effect at once; maintenance windows are operators' own",
};

type Ep = { method: string; access: string };
/** Domains whose customers write (non-GET, "user") and whose operators write (staff or manager). */
function customerAndOperatorWrites(): string[] {
  return Object.entries(Endpoints)
    .filter(([, eps]) => {
      const list = Object.values(eps as Record<string, Ep>).filter((e) => e.method !== "GET");
      return list.some((e) => e.access === "user") && list.some((e) => e.access === "staff" || e.access === "manager");
    })
    .map(([domain]) => domain);
}

/** What the overview must list: a module with a queue and no counter is named. */
function queuesWithoutCounter(modules: readonly ModuleManifest[]): string[] {
  const byName = new Map(modules.map((m) => [m.name, m]));
  return customerAndOperatorWrites().filter((d) => !NO_QUEUE[d] && !byName.get(d)?.waiting?.length);
}

describe("module manifests", () => {
  it("every module folder exports one manifest of its name, and app.ts lists each once", async () => {
    const names = MODULES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...folders].sort());
    for (const name of folders) {
      const file = path.join(MODULES_DIR, name, `${name}.module.ts`);
      expect(fs.existsSync(file), file).toBe(true);
      const exported = Object.values(await import(file)) as ModuleManifest[];
      expect(exported).toHaveLength(1);
      expect(MODULES).toContain(exported[0]);
    }
  });

  it("each contract domain is served by the module of its name", () => {
    const names = new Set(MODULES.map((m) => m.name));
    expect(Object.keys(Endpoints).filter((d) => !names.has(d))).toEqual([]);
  });

  it("keeps per-app state in the manifests, not in WeakMaps keyed by the context", () => {
    const found: string[] = [];
    for (const file of fs.readdirSync(MODULES_DIR, { recursive: true, encoding: "utf8" }))
      if (
        file.endsWith(".ts") &&
        /new WeakMap<AppContext\b/.test(fs.readFileSync(path.join(MODULES_DIR, file), "utf8"))
      )
        found.push(file);
    expect(found).toEqual([]);
  });

  it("every module with a queue declares a waiting counter", () => {
    expect(queuesWithoutCounter(MODULES)).toEqual([]);
    // Withdrawals and invoices are queues: taking either counter away is caught.
    for (const name of ["affiliate", "invoices", "tickets", "verify"]) {
      const without = MODULES.map((m) => (m.name === name ? { ...m, waiting: undefined } : m));
      expect(queuesWithoutCounter(without)).toEqual([name]);
    }
    // The exemptions name modules that exist and still match (a stale line is removed).
    for (const d of Object.keys(NO_QUEUE)) expect(customerAndOperatorWrites()).toContain(d);
  });
});

describe("the overview lists every counter of the app's modules", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("answers one waiting line per declared counter, withdrawals and invoices included", async () => {
    const r = await t.api("GET", "/super/viewInfo", { token: await t.adminToken() });
    expect(r.status).toBe(200);
    const keys = (r.body.data as { waiting: { key: string }[] }).waiting.map((w) => w.key);
    expect(keys).toEqual(MODULES.flatMap((m) => m.waiting ?? []).map((c) => c.key));
    expect(keys).toEqual(expect.arrayContaining(["tickets", "verifications", "withdrawals", "invoices"]));
  });
});
