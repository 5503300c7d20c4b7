import fs from "node:fs";
import path from "node:path";
import { NodeStatus, UserStatus } from "@burrow/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eraseAuthData } from "../src/modules/auth/account-data";
import { revokeSessions } from "../src/modules/auth/sessions";
import { setNodeHealth } from "../src/modules/nodes/nodes.service";
import { findPlanWithLevel } from "../src/modules/plans/plans.repository";
import { GB, grantDefaultPlan } from "../src/modules/subscriptions/default-plan";
import { chargeTraffic } from "../src/modules/subscriptions/quota";
import {
  applyPurchase,
  decidePurchase,
  expireSubscriptions,
  grantBonusTraffic,
  revokePurchase,
} from "../src/modules/subscriptions/subscriptions.service";
import { restartAccountTunnels, stopAccountTunnels } from "../src/modules/tunnels/account-data";
import { takeOverExactNames } from "../src/modules/tunnels/exact-owner";
import { writeTunnelSchedule } from "../src/modules/tunnels/schedule";
import {
  addTunnelTraffic,
  holdTunnel,
  releaseMovedHolds,
  releaseTunnelHold,
  tunnelSeenOnline,
  tunnelsGone,
  tunnelsOffline,
  tunnelsOnline,
} from "../src/modules/tunnels/sessions";
import { lockTunnel } from "../src/modules/tunnels/tunnels.admin";
import { changeBalance } from "../src/modules/users/balance";
import { insertUser, recordLogin, updateUserRow } from "../src/modules/users/users.repository";
import type { ChangeEventName } from "../src/shared/events";
import { shanghaiDate } from "../src/shared/time";
import { direct, transact } from "../src/shared/tx";
import { holdDomain } from "./domain-fixtures";
import { createTestNode, createTestTunnel, registerWithPlan, setPlan } from "./frp-fixtures";
import { createTestApp, nextPhone, type TestApp } from "./harness";
import { adminOf, makePlan } from "./store-fixtures";

/**
 * The owners of users, subscriptions, tunnels, nodes and sessions announce every change the frp
 * decision cache and the session cache depend on themselves, after the commit. The scan finds
 * every function of those modules that writes one of the five tables; each must have a case below
 * that calls it against a test app and sees its event published with no transaction open (an
 * event inside the transaction lets a cache reload the old row), or be listed as quiet with the reason.
 */
const SRC = path.resolve(import.meta.dirname, "../src/modules");
const OWNERS = {
  users: "users",
  subscriptions: "subscriptions",
  tunnels: "tunnels",
  nodes: "nodes",
  auth: "sessions",
} as const;

/** Writes that change nothing the frp decision reads, or only what the reporting process already knows. */
const QUIET: Record<string, string> = {
  tunnelsOnline:
    "a session opened proxies: the plugin that saw it answers from memory (write-behind); only a tunnel blocked meanwhile is announced",
  tunnelSeenOnline: "the poller saw an offline tunnel online: status only, no hold taken or released",
  tunnelsGone: "connected tunnels went offline: status only, decisions do not depend on it",
  issueSession: "a new session: its id is new, so no cache holds it",
  touchSession: "last_seen_at only, for the session list: no cache reads it",
};

/** Functions of the owner modules that write their tables: "function" (the nearest top-level declaration). */
function writers(): Set<string> {
  const out = new Set<string>();
  for (const [mod, table] of Object.entries(OWNERS)) {
    const dir = path.join(SRC, mod);
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const text = fs.readFileSync(path.join(dir, name), "utf8");
      for (const m of text.matchAll(new RegExp(`\\b(updateTable|insertInto|deleteFrom)\\(\\s*"${table}"`, "g"))) {
        const decls = [
          ...text.slice(0, m.index).matchAll(/^(?:export )?(?:async )?function (\w+)|^export const (\w+) =/gm),
        ];
        const last = decls.at(-1);
        out.add(last ? (last[1] ?? last[2]) : `${mod}/${name}`);
      }
    }
  }
  return out;
}

let t: TestApp;
/** events published, with how many transactions were open at that moment */
const published: { name: ChangeEventName; open: number; payload: unknown }[] = [];
let open = 0;

beforeAll(async () => {
  t = await createTestApp();
  // Count transactions in flight: an event published while one is open was published too early.
  const db = t.ctx.db;
  const begin = db.transaction.bind(db);
  db.transaction = () => {
    const builder = begin();
    const execute = builder.execute.bind(builder);
    builder.execute = async (fn) => {
      open++;
      try {
        return await execute(fn);
      } finally {
        open--;
      }
    };
    return builder;
  };
  const emit = t.ctx.events.emit.bind(t.ctx.events);
  t.ctx.events.emit = (name, payload) => {
    published.push({ name, open, payload });
    emit(name, payload);
  };
});
afterAll(() => t.close());
beforeEach(() => {
  published.length = 0;
});

/** Runs `fn` (after `setup`, whose events do not count) and expects `event` published after every commit. */
async function expectAnnounced(event: ChangeEventName, fn: () => Promise<unknown>) {
  published.length = 0;
  await fn();
  expect(published.map((p) => p.name)).toContain(event);
  expect(published.filter((p) => p.open > 0)).toEqual([]);
}

const customer = () => registerWithPlan(t);

async function tunnelOf(u: { uid: number; token: string }) {
  const node = await createTestNode(t);
  return createTestTunnel(t, u.token, { node_id: node.node_id });
}

const CASES: Record<string, () => Promise<void>> = {
  changeBalance: async () => {
    const u = await t.register();
    await expectAnnounced("user.changed", () =>
      transact(t.ctx, (trx) => changeBalance(trx, { uid: u.uid, change: 100, reason: "test" })),
    );
  },
  insertUser: () =>
    expectAnnounced("user.changed", () =>
      transact(t.ctx, (trx) =>
        insertUser(trx, {
          phone: nextPhone(),
          password_hash: "x",
          role: 1,
          status: UserStatus.Active,
          ban_reason: null,
          nickname: "n",
          frp_token: `tok${Date.now()}`,
          invite_code: `I${Date.now().toString(36).toUpperCase()}`,
          referrer_uid: null,
          real_name: null,
          id_number_masked: null,
          created_at: new Date().toISOString(),
          last_login_at: null,
        }),
      ),
    ),
  updateUserRow: async () => {
    const u = await t.register();
    await expectAnnounced("user.changed", () => updateUserRow(direct(t.ctx), u.uid, { nickname: "direct" }));
    await expectAnnounced("user.changed", () =>
      transact(t.ctx, (trx) => updateUserRow(trx, u.uid, { status: UserStatus.Banned, ban_reason: "x" })),
    );
  },
  recordLogin: async () => {
    const u = await t.register();
    await expectAnnounced("user.changed", () => transact(t.ctx, (trx) => recordLogin(trx, u.uid, "1.2.3.4", "ua")));
  },
  grantDefaultPlan: async () => {
    const u = await t.register();
    await expectAnnounced("subscription.changed", () => transact(t.ctx, (trx) => grantDefaultPlan(trx, u.uid)));
  },
  chargeTraffic: async () => {
    const u = await customer();
    await expectAnnounced("subscription.changed", () => transact(t.ctx, (trx) => chargeTraffic(trx, u.uid, 1000 * GB)));
  },
  applyPurchase: async () => {
    const u = await t.register();
    const plan = (await findPlanWithLevel(t.db, (await makePlan(t)).id))!;
    const intent = { kind: "plan" as const, plan, months: 1, period: "monthly" as const };
    await expectAnnounced("subscription.changed", () =>
      transact(t.ctx, async (trx) => {
        const decision = await decidePurchase(trx, u.uid, intent, new Date());
        await applyPurchase(trx, u.uid, intent, decision, { value: 1000, tradeId: null, now: new Date() });
      }),
    );
  },
  revokePurchase: async () => {
    const u = await t.register();
    const plan = (await findPlanWithLevel(t.db, (await makePlan(t)).id))!;
    const intent = { kind: "plan" as const, plan, months: 1, period: "monthly" as const };
    const applied = await transact(t.ctx, async (trx) =>
      applyPurchase(trx, u.uid, intent, await decidePurchase(trx, u.uid, intent, new Date()), {
        value: 1000,
        tradeId: null,
        now: new Date(),
      }),
    );
    await expectAnnounced("subscription.changed", () =>
      transact(t.ctx, (trx) =>
        revokePurchase(trx, { uid: u.uid, ...applied, sub_end_before: null, sub_end_after: null }, 0, new Date()),
      ),
    );
  },
  grantBonusTraffic: async () => {
    const u = await customer();
    await expectAnnounced("subscription.changed", () =>
      transact(t.ctx, (trx) => grantBonusTraffic(trx, u.uid, GB, new Date())),
    );
  },
  expireSubscriptions: async () => {
    const u = await t.register();
    await setPlan(t, u.uid, { end_at: new Date(Date.now() - 1000).toISOString() });
    await expectAnnounced("subscription.changed", () => expireSubscriptions(t.ctx));
  },
  // The one write path of customers' tunnels: a new tunnel and an edit.
  writeTunnel: async () => {
    const u = await customer();
    let tun: Awaited<ReturnType<typeof tunnelOf>> | undefined;
    await expectAnnounced("tunnel.changed", async () => {
      tun = await tunnelOf(u);
    });
    await expectAnnounced("tunnel.changed", () =>
      t.api("PATCH", "/user/tun", { token: u.token, body: { tun_id: tun!.tun_id, enabled: false } }),
    );
  },
  markDeleted: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    await expectAnnounced("tunnel.changed", async () => {
      const r = await t.api("DELETE", "/user/tun", { token: u.token, body: { tun_id: tun.tun_id } });
      expect(r.body.code).toBe("SUCCESS");
    });
  },
  // The exact owner binding a name a wildcard holder's tunnel held on the node: that tunnel changed.
  takeOverExactNames: async () => {
    const a = await customer();
    const b = await customer();
    const node = await createTestNode(t);
    const apex = `takeover-${process.pid}.example.com`;
    await holdDomain(t, a.uid, node.node_id, `*.${apex}`);
    await createTestTunnel(t, a.token, { node_id: node.node_id, protocol: "http", custom_domains: [`x.${apex}`] });
    await holdDomain(t, b.uid, node.node_id, `x.${apex}`);
    await expectAnnounced("tunnel.changed", () =>
      transact(t.ctx, (trx) => takeOverExactNames(trx, b.uid, node.node_id, [`x.${apex}`])),
    );
  },
  // 定时开放: the decision reads the schedule, so every cache reloads the tunnel.
  writeTunnelSchedule: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    await expectAnnounced("tunnel.changed", () =>
      transact(t.ctx, (trx) =>
        writeTunnelSchedule(trx, u.uid, tun.tun_id, { kind: "until", until: "2030-01-01T00:00:00.000Z" }),
      ),
    );
  },
  // A secret tunnel's new secret: the plugin compares NewProxy's sk with it.
  rotateSecret: async () => {
    const u = await customer();
    const node = await createTestNode(t);
    const tun = await createTestTunnel(t, u.token, { node_id: node.node_id, protocol: "stcp" });
    await expectAnnounced("tunnel.changed", async () => {
      const r = await t.api("POST", `/user/tun/${tun.tun_id}/secret`, { token: u.token });
      expect(r.body.code).toBe("SUCCESS");
    });
  },
  lockTunnel: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    await expectAnnounced("tunnel.changed", () => transact(t.ctx, (trx) => lockTunnel(trx, tun.tun_id, "test", 1)));
  },
  // An account's deletion request stops its tunnels; its cancel starts them again (docs/leaving.md).
  stopAccountTunnels: async () => {
    const u = await customer();
    await tunnelOf(u);
    await expectAnnounced("tunnel.changed", () => transact(t.ctx, (trx) => stopAccountTunnels(trx, u.uid)));
  },
  restartAccountTunnels: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    await transact(t.ctx, (trx) => stopAccountTunnels(trx, u.uid));
    await expectAnnounced("tunnel.changed", () =>
      transact(t.ctx, (trx) => restartAccountTunnels(trx, u.uid, [tun.tun_id])),
    );
  },
  adminUpdateTunnel: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    const token = await adminOf(t);
    await expectAnnounced("tunnel.changed", async () => {
      const r = await t.api("PATCH", "/super/tun", {
        token,
        body: { tun_id: tun.tun_id, status: 3, banned_reason: "test" },
      });
      expect(r.body.code).toBe("SUCCESS");
    });
  },
  tunnelsOffline: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    await transact(t.ctx, (trx) => tunnelsOnline(trx, [tun.tun_id], "run-1", new Date().toISOString()));
    await expectAnnounced("tunnel.changed", () =>
      transact(t.ctx, (trx) => tunnelsOffline(trx, [tun.tun_id], "run-1", [{ tun_id: tun.tun_id, uid: u.uid }])),
    );
  },
  holdTunnel: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    await expectAnnounced("tunnel.changed", () =>
      transact(t.ctx, (trx) => holdTunnel(trx, { tun_id: tun.tun_id, uid: u.uid }, "run-2")),
    );
  },
  releaseTunnelHold: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    await expectAnnounced("tunnel.changed", () =>
      transact(t.ctx, (trx) => releaseTunnelHold(trx, { tun_id: tun.tun_id, uid: u.uid })),
    );
  },
  releaseMovedHolds: async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    // A move recorded the old node's session as the moved hold (sessions.ts movedHoldValues).
    await t.db
      .updateTable("tunnels")
      .set({ moved_node_id: tun.node_id + 1000, moved_run_id: "run-3" })
      .where("tun_id", "=", tun.tun_id)
      .execute();
    await expectAnnounced("tunnel.changed", () =>
      transact(t.ctx, (trx) => releaseMovedHolds(trx, tun.node_id + 1000, [tun])),
    );
  },
  // An account's erasure revokes every session (announced) before deleting the rows.
  eraseAuthData: async () => {
    const u = await t.register();
    await expectAnnounced("session.revoked", () => transact(t.ctx, (trx) => eraseAuthData(trx, u.uid)));
  },
  revokeSessions: async () => {
    const u = await t.register();
    const sid = (await t.db.selectFrom("sessions").select("id").where("uid", "=", u.uid).executeTakeFirstOrThrow()).id;
    await expectAnnounced("session.revoked", () => revokeSessions(direct(t.ctx), { uid: u.uid, sid }));
    await expectAnnounced("session.revoked", () => transact(t.ctx, (trx) => revokeSessions(trx, { uid: u.uid })));
    // Through the routes that revoke: sign-out, and a ban by an operator.
    const v = await t.register();
    await expectAnnounced("session.revoked", () => t.api("POST", "/auth/logout", { token: v.token }));
    const token = await adminOf(t);
    await expectAnnounced("session.revoked", () =>
      t.api("PATCH", "/super/user/info", { token, body: { uid: v.uid, status: UserStatus.Banned, ban_reason: "x" } }),
    );
  },
  createNode: () => expectAnnounced("node.changed", () => createTestNode(t)),
  addTunnelTraffic: async () => {
    // The traffic page's sums (TrafficCache), not the frp decision (chargeTraffic announces that):
    // one event a poll of a node, naming every customer credited.
    const [u, v] = [await customer(), await customer()];
    const [tu, tv] = [await tunnelOf(u), await tunnelOf(v)];
    const day = shanghaiDate();
    await expectAnnounced("traffic.changed", () =>
      transact(t.ctx, (trx) =>
        addTunnelTraffic(trx, tu.node_id, [
          { tun_id: tu.tun_id, uid: u.uid, day, traffic_in: 1, traffic_out: 1 },
          { tun_id: tv.tun_id, uid: v.uid, day, traffic_in: 2, traffic_out: 2 },
        ]),
      ),
    );
    expect(published.filter((p) => p.name === "traffic.changed").map((p) => p.payload)).toEqual([
      { uids: [u.uid, v.uid] },
    ]);
  },
  updateNode: async () => {
    const [n, token] = [await createTestNode(t), await adminOf(t)];
    await expectAnnounced("node.changed", () =>
      t.api("PATCH", "/super/node", { token, body: { node_id: n.node_id, description: "x" } }),
    );
  },
  setNodeHealth: async () => {
    const n = await createTestNode(t);
    await expectAnnounced("node.changed", () => setNodeHealth(direct(t.ctx), n.node_id, NodeStatus.Exception));
  },
  deleteNode: async () => {
    const [n, token] = [await createTestNode(t), await adminOf(t)];
    await expectAnnounced("node.changed", async () => {
      const r = await t.api("DELETE", "/super/node", { token, body: { node_id: n.node_id } });
      expect(r.body.code).toBe("SUCCESS");
    });
  },
};

describe("change events come from the owners, after the commit", () => {
  it("every function that writes users, subscriptions, tunnels or nodes has a case (or is quiet, with a reason)", () => {
    const found = [...writers()].sort();
    expect(found.length).toBeGreaterThan(15);
    expect(found.filter((f) => !(f in CASES) && !(f in QUIET))).toEqual([]);
    // No stale entry: each case and each quiet write still exists.
    expect([...Object.keys(CASES), ...Object.keys(QUIET)].filter((f) => !found.includes(f))).toEqual([]);
  });

  for (const [name, run] of Object.entries(CASES)) it(`${name} announces its change after the commit`, run);

  it("a rolled-back transaction announces nothing", async () => {
    const u = await t.register();
    published.length = 0;
    await expect(
      transact(t.ctx, async (trx) => {
        await updateUserRow(trx, u.uid, { nickname: "never" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(published).toEqual([]);
  });

  it("quiet writes stay quiet (they run on the frp hot path)", async () => {
    const u = await customer();
    const tun = await tunnelOf(u);
    published.length = 0;
    const at = new Date().toISOString();
    await transact(t.ctx, async (trx) => {
      await tunnelsOnline(trx, [tun.tun_id], "run-3", at);
      await tunnelsGone(trx, [tun.tun_id]);
      await tunnelSeenOnline(trx, tun.tun_id, "run-4", at);
    });
    expect(published).toEqual([]);
  });
});
