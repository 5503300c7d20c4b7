import type {
  CreateHomeConfigBody,
  HomeConfigListQuery,
  HomeConfigRow,
  Paged,
  UpdateHomeConfigBody,
  UserHome,
} from "@burrow/contract";
import type { Selectable } from "kysely";
import type { AppContext } from "../../context";
import { containsText } from "../../db/dialect";
import type { Operator } from "../../shared/actor";
import { notFound } from "../../shared/errors";
import { pageOfQuery } from "../../shared/paging";
import { nowIso } from "../../shared/time";
import { audit } from "../audit/audit";
import type { HomeConfigTable } from "./home.table";

function parseAddon(text: string): { published: boolean } {
  try {
    const v = JSON.parse(text) as { published?: unknown };
    return { published: v.published !== false };
  } catch {
    return { published: true };
  }
}

function present(r: Selectable<HomeConfigTable>): HomeConfigRow {
  return { ...r, data_type: r.data_type as 1 | 2 | 3, sort: Number(r.sort), addon: parseAddon(r.addon) };
}

/** Operators' list, filtered by kind and by words in the title or content; in dashboard order. */
export function listHomeConfigs(ctx: AppContext, q: HomeConfigListQuery): Promise<Paged<HomeConfigRow>> {
  let sel = ctx.db.selectFrom("home_configs");
  if (q.data_type) sel = sel.where("data_type", "=", q.data_type);
  if (q.title) sel = sel.where(containsText(ctx.db, "title", q.title));
  if (q.content) sel = sel.where(containsText(ctx.db, "content", q.content));
  return pageOfQuery(
    q,
    sel,
    (s) => s.selectAll().orderBy("data_type", "asc").orderBy("sort", "asc").orderBy("id", "asc"),
    present,
  );
}

/** The customer dashboard's content: published entries only, by sort then id. */
export async function userHome(ctx: AppContext): Promise<UserHome> {
  const rows = (
    await ctx.db.selectFrom("home_configs").selectAll().orderBy("sort", "asc").orderBy("id", "asc").execute()
  )
    .map(present)
    .filter((r) => r.addon.published);
  return {
    carousel: rows.filter((r) => r.data_type === 1),
    notices: rows.filter((r) => r.data_type === 2),
    quote: rows.find((r) => r.data_type === 3) ?? null,
  };
}

/** Adds an entry (audited). */
export async function createHomeConfig(
  ctx: AppContext,
  op: Operator,
  body: CreateHomeConfigBody,
): Promise<HomeConfigRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const now = nowIso();
    const r = await trx
      .insertInto("home_configs")
      .values({ ...body, addon: JSON.stringify(body.addon), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, { operatorUid: op.uid, action: "home.create", target: `home:${r.id}`, detail: body, ip: op.ip });
    return present(r);
  });
}

/** Changes only the fields in param (audited). */
export async function updateHomeConfig(
  ctx: AppContext,
  op: Operator,
  body: UpdateHomeConfigBody,
): Promise<HomeConfigRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const cur = await trx.selectFrom("home_configs").select("id").where("id", "=", body.id).executeTakeFirst();
    if (!cur) throw notFound("首页内容");
    const { addon, ...rest } = body.param;
    const changes = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
    await trx
      .updateTable("home_configs")
      .set({ ...changes, ...(addon ? { addon: JSON.stringify(addon) } : {}), updated_at: nowIso() })
      .where("id", "=", body.id)
      .execute();
    await audit(trx, {
      operatorUid: op.uid,
      action: "home.update",
      target: `home:${body.id}`,
      detail: body.param,
      ip: op.ip,
    });
    return present(
      await trx.selectFrom("home_configs").selectAll().where("id", "=", body.id).executeTakeFirstOrThrow(),
    );
  });
}

/** Removes an entry (audited). */
export async function deleteHomeConfig(ctx: AppContext, op: Operator, id: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom("home_configs").where("id", "=", id).executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw notFound("首页内容");
    await audit(trx, { operatorUid: op.uid, action: "home.delete", target: `home:${id}`, ip: op.ip });
  });
}
