import type { AdminNodeDetail, Paged, TunnelEventRow, TunnelView } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { type DomainCustomer, domainSuite, holdDomain } from "../../../test/domain-fixtures";
import type { TestApp } from "../../../test/harness";
import { takenOverReason } from "./exact-owner";

/**
 * The exact owner of a name wins over another customer's wildcard (docs/domains.md 通配符域名):
 * binding it takes it from the wildcard holder's tunnel on the node, in the same transaction.
 */

const suite = domainSuite();
const { customer, web, newProxy } = suite;
let t: TestApp;
let node: AdminNodeDetail;
beforeAll(() => {
  ({ t, node } = suite.get());
});

let seq = 0;
const apexName = () => `eo${++seq}-${process.pid}.example.com`;

/** A customer holding `*.<apex>` on the node, with a tunnel on the wildcard and `names` under it. */
async function wildcardTunnel(names: string[]): Promise<{ a: DomainCustomer; apex: string; tun: TunnelView }> {
  const a = await customer();
  const apex = apexName();
  await holdDomain(t, a.uid, node.node_id, `*.${apex}`);
  const r = await web(a, [`*.${apex}`, ...names.map((n) => `${n}.${apex}`)]);
  expect(r.body.code).toBe("SUCCESS");
  return { a, apex, tun: r.body.data };
}

/** An exact owner of `domain` (verified with its own TXT; held directly here). */
async function exactOwner(domain: string): Promise<DomainCustomer> {
  const b = await customer();
  await holdDomain(t, b.uid, node.node_id, domain);
  return b;
}

/** A tunnel's custom domains as stored, and the names its tunnel_domains rows hold (sorted). */
async function stored(tunId: number): Promise<{ custom: string[]; rows: string[] }> {
  const row = await t.db.selectFrom("tunnels").select("custom_domains").where("tun_id", "=", tunId).executeTakeFirst();
  const rows = await t.db.selectFrom("tunnel_domains").select("domain").where("tun_id", "=", tunId).execute();
  return {
    custom: (JSON.parse(row?.custom_domains ?? "[]") as string[]).sort(),
    rows: rows.map((r) => r.domain).sort(),
  };
}

describe("the exact owner binds a name a wildcard holder's tunnel holds on the same node", () => {
  it("takes it from that tunnel (custom domains and tunnel_domains), tells its owner, and both NewProxy calls follow", async () => {
    const { a, apex, tun } = await wildcardTunnel(["x", "keep"]);
    expect((await newProxy(a, tun)).reject).toBe(false);
    const b = await exactOwner(`x.${apex}`);
    const mine = await web(b, [`x.${apex}`]);
    expect(mine.body.code).toBe("SUCCESS");
    expect(await stored(tun.tun_id)).toEqual({
      custom: [`*.${apex}`, `keep.${apex}`].sort(),
      rows: [`*.${apex}`, `keep.${apex}`].sort(),
    });
    expect(await stored(mine.body.data.tun_id)).toEqual({ custom: [`x.${apex}`], rows: [`x.${apex}`] });
    // a's 连接诊断 says what happened and offers the config again
    const events = await t.api<Paged<TunnelEventRow>>("GET", `/user/tun/${tun.tun_id}/events`, { token: a.token });
    expect(events.body.data.list).toContainEqual(
      expect.objectContaining({ kind: "domain_removed", reason: takenOverReason(`x.${apex}`), fix: "config" }),
    );
    expect(takenOverReason(`x.${apex}`)).toContain(`泛域名 *.${apex}`);
    // b's proxy is allowed; a's old config naming x.<apex> is refused, the new one is allowed
    expect((await newProxy(b, mine.body.data)).reject).toBe(false);
    expect((await newProxy(a, tun)).reject).toBe(true);
    const now = await t.api<TunnelView>("GET", `/user/tun/${tun.tun_id}`, { token: a.token });
    expect(now.body.data.custom_domains).toEqual([`*.${apex}`, `keep.${apex}`]);
    expect((await newProxy(a, now.body.data)).reject).toBe(false);
    // the wildcard holder cannot take it back (40001), changing nothing
    const back = await t.api("PATCH", "/user/tun", {
      token: a.token,
      body: { tun_id: tun.tun_id, custom_domains: [`*.${apex}`, `x.${apex}`] },
    });
    expect([back.status, back.body.code]).toEqual([409, 40001]);
    expect((await stored(tun.tun_id)).custom).toEqual([`*.${apex}`, `keep.${apex}`].sort());
  });

  it("takes nothing for a name the writer does not hold exactly, nor from the writer's own tunnels", async () => {
    const { a, apex, tun } = await wildcardTunnel(["x", "y"]);
    // b holds y.<apex> exactly, not x.<apex>: binding x is refused and a keeps both
    const b = await exactOwner(`y.${apex}`);
    const notHeld = await web(b, [`x.${apex}`]);
    expect([notHeld.status, notHeld.body.code]).toEqual([400, 10000]);
    expect((await stored(tun.tun_id)).rows).toEqual([`*.${apex}`, `x.${apex}`, `y.${apex}`].sort());
    // the wildcard holder's own second tunnel on a covered name it already uses: still 已被占用
    const dup = await web(a, [`x.${apex}`]);
    expect([dup.status, dup.body.code, dup.body.msg]).toEqual([409, 40001, `域名 x.${apex} 已被占用`]);
    // b's own second tunnel on its exact name after binding it: 已被占用, its first tunnel keeps it
    const first = await web(b, [`y.${apex}`]);
    expect(first.body.code).toBe("SUCCESS");
    const second = await web(b, [`y.${apex}`]);
    expect([second.status, second.body.code]).toEqual([409, 40001]);
    expect((await stored(first.body.data.tun_id)).rows).toEqual([`y.${apex}`]);
    expect((await stored(tun.tun_id)).rows).toEqual([`*.${apex}`, `x.${apex}`].sort());
    void a;
  });

  it("races: the bind beside the wildcard holder's edit, and two exact owners at once, lose no write", async () => {
    for (let round = 0; round < 6; round++) {
      // even rounds: a edits (dropping x and y, adding z) while b binds x and c binds y; odd: b and c only
      const editing = round % 2 === 0;
      const { a, apex, tun } = await wildcardTunnel(["x", "y", "keep"]);
      const b = await exactOwner(`x.${apex}`);
      const c = await exactOwner(`y.${apex}`);
      const [bx, cy, edit] = await Promise.all([
        web(b, [`x.${apex}`]),
        web(c, [`y.${apex}`]),
        editing
          ? t.api("PATCH", "/user/tun", {
              token: a.token,
              body: { tun_id: tun.tun_id, custom_domains: [`*.${apex}`, `z.${apex}`] },
            })
          : null,
      ]);
      expect([bx.body.code, cy.body.code, edit?.body.code]).toEqual([
        "SUCCESS",
        "SUCCESS",
        editing ? "SUCCESS" : undefined,
      ]);
      // the stored custom domains and the held names agree, and hold what the last writer meant
      const want = (editing ? [`*.${apex}`, `z.${apex}`] : [`*.${apex}`, `keep.${apex}`]).sort();
      expect(await stored(tun.tun_id)).toEqual({ custom: want, rows: want });
      expect((await stored(bx.body.data.tun_id)).rows).toEqual([`x.${apex}`]);
      expect((await stored(cy.body.data.tun_id)).rows).toEqual([`y.${apex}`]);
    }
  });
});
