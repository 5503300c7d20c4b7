import { MONTHLY_ONLY_FEES, NetworkType, Role, UserStatus } from "@burrow/contract";
import { sql } from "kysely";
import type { AppContext } from "./context";
import { isPostgres } from "./db/dialect";
import { hashPassword } from "./modules/auth/passwords";
import { grantDefaultPlan } from "./modules/subscriptions/default-plan";
import { randomCode, randomToken } from "./shared/ids";
import { getSetting, setSetting } from "./shared/settings";
import { nowIso } from "./shared/time";
import { transact } from "./shared/tx";

/** The one line a later start with ADMIN_PASSWORD set prints. */
export const adminPasswordIgnored = (phone = "<phone>"): string =>
  "ADMIN_PASSWORD is ignored: the operator account was created on the first start. " +
  `To set a new password: npm run admin -- reset-password ${phone}`;

/**
 * First start on an empty database: a Manager account and what a fresh install needs to be tried
 * at once (DESIGN.md §10). Runs once; marked by the `seeded` setting. Returns the operator's
 * sign-in lines to print (the generated password is never logged).
 */
export async function seedFreshInstall(ctx: AppContext): Promise<string[] | undefined> {
  if (await getSetting(ctx.db, "seeded")) {
    // Only the first start reads them; an operator setting them again is most likely locked out.
    if (ctx.config.ADMIN_PASSWORD) ctx.log.warn(adminPasswordIgnored(ctx.config.ADMIN_PHONE));
    return undefined;
  }
  const now = nowIso();
  const phone = ctx.config.ADMIN_PHONE ?? "13800000000";
  const generated = !ctx.config.ADMIN_PASSWORD;
  const password = ctx.config.ADMIN_PASSWORD ?? randomToken(9);
  const passwordHash = await hashPassword(password);
  await transact(ctx, async (trx) => {
    const area = await trx
      .insertInto("areas")
      .values({ area_name: "默认地区", sort: 0, created_at: now })
      .returning("area_id")
      .executeTakeFirstOrThrow();
    for (const [id, name] of [
      [NetworkType.Host, "host"],
      [NetworkType.IpVlan, "IP-vlan"],
      [NetworkType.MacVlan, "mac-vlan"],
    ] as const) {
      await trx.insertInto("net_types").values({ id, name, created_at: now }).execute();
    }
    // Explicit ids keep SPEC's network-type values; move PostgreSQL's sequence past them.
    if (isPostgres(ctx.db)) await sql`select setval('net_types_id_seq', (select max(id) from net_types))`.execute(trx);
    const levels: number[] = [];
    for (const [name, level] of [
      ["免费版", 1],
      ["标准版", 2],
      ["专业版", 3],
    ] as const) {
      const r = await trx
        .insertInto("plan_levels")
        .values({ name, level, created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      levels.push(r.id);
    }
    await trx
      .insertInto("plans")
      .values({
        name: "免费套餐",
        tag: "免费",
        simple_desc: "注册即送，适合体验与轻量使用",
        traffic: 10,
        type: 2,
        level_id: levels[0],
        sort: 0,
        bandwidth: 4,
        tunnel_limit: 3,
        tunnel_peer_port_limit: 1,
        monthly_fee: 0,
        monthly_fee_discount: 1,
        ...MONTHLY_ONLY_FEES,
        on_sale: 0,
        is_default: 1,
        created_at: now,
      })
      .execute();
    await trx
      .insertInto("nodes")
      .values({
        name: "本地节点",
        area_id: area.area_id,
        net_type_id: NetworkType.Host,
        level_id: levels[0],
        host: "127.0.0.1",
        bind_port: 7000,
        vhost_http_port: 8081,
        vhost_https_port: 8443,
        subdomain_host: "frp.localhost",
        port_min: 10000,
        port_max: 20000,
        bandwidth: 100,
        status: 2,
        api_addr: "http://127.0.0.1:7500",
        api_user: "admin",
        api_password: randomToken(12),
        plugin_secret: randomToken(24),
        // Customers read the description; how to bring this placeholder online is the operator's
        // set-up checklist's to say (modules/usermgr/setup-checklist.ts).
        description: "默认地区的通用节点",
        sort: 0,
        created_at: now,
      })
      .execute();
    let admin = await trx.selectFrom("users").select("uid").where("phone", "=", phone).executeTakeFirst();
    if (!admin) {
      admin = await trx
        .insertInto("users")
        .values({
          phone,
          password_hash: passwordHash,
          role: Role.Manager,
          status: UserStatus.Active,
          ban_reason: null,
          nickname: "管理员",
          frp_token: randomToken(16),
          invite_code: randomCode(8),
          referrer_uid: null,
          real_name: null,
          id_number_masked: null,
          created_at: now,
          last_login_at: null,
        })
        .returning("uid")
        .executeTakeFirstOrThrow();
      await grantDefaultPlan(trx, admin.uid);
    }
    await setSetting(trx, "seeded", now);
  });
  ctx.log.debug({ phone }, "fresh install seeded");
  // Printed by main.ts once the server listens, with its address: the first thing the operator reads.
  return [
    "  Operator sign-in:",
    `    phone:    ${phone}`,
    `    password: ${generated ? password : "(the ADMIN_PASSWORD you set)"}`,
    ...(generated ? ["  This generated password is shown once; change it in 个人中心 after signing in."] : []),
  ];
}
