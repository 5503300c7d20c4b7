import type {
  CreateOidcProviderBody,
  OidcProviderPublic,
  OidcProviderRow,
  UpdateOidcProviderBody,
} from "@burrow/contract";
import * as client from "openid-client";
import type { AppContext } from "../../context";
import type { Operator } from "../../shared/actor";
import { invalid, notFound, refused } from "../../shared/errors";
import { AppState } from "../../shared/module";
import { nowIso } from "../../shared/time";
import { audit } from "../audit/audit";
import type { OidcProviderTable } from "./oidc.table";
import { decryptSecret, encryptSecret } from "./secrets";

type ProviderRecord = Omit<OidcProviderTable, "id"> & { id: number };

const present = (r: ProviderRecord): OidcProviderRow => ({
  id: r.id,
  name: r.name,
  issuer: r.issuer,
  client_id: r.client_id,
  has_secret: r.client_secret_enc !== "",
  scopes: r.scopes,
  enabled: r.enabled === 1,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** What an audit row says about a provider: everything but the secret. */
const auditable = (r: Partial<CreateOidcProviderBody>) => {
  const { client_secret, ...rest } = r;
  return { ...rest, ...(client_secret !== undefined && { client_secret: "(changed)" }) };
};

export const findProvider = (ctx: AppContext, id: number) =>
  ctx.db.selectFrom("oidc_providers").selectAll().where("id", "=", id).executeTakeFirst();

/** An enabled provider, or 404 (disabled ones cannot start nor finish a flow). */
export async function enabledProvider(ctx: AppContext, id: number): Promise<ProviderRecord> {
  const p = await findProvider(ctx, id);
  if (p?.enabled !== 1) throw notFound("该第三方登录方式");
  return p;
}

/** The sign-in page's buttons: enabled providers, id and display name only. */
export async function publicProviders(ctx: AppContext): Promise<OidcProviderPublic[]> {
  return ctx.db.selectFrom("oidc_providers").select(["id", "name"]).where("enabled", "=", 1).orderBy("id").execute();
}

export async function listProviders(ctx: AppContext): Promise<OidcProviderRow[]> {
  return (await ctx.db.selectFrom("oidc_providers").selectAll().orderBy("id").execute()).map(present);
}

export async function createProvider(ctx: AppContext, op: Operator, body: CreateOidcProviderBody) {
  const now = nowIso();
  const enc = await encryptSecret(ctx, body.client_secret);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto("oidc_providers")
      .values({
        name: body.name,
        issuer: body.issuer,
        client_id: body.client_id,
        client_secret_enc: enc,
        scopes: body.scopes,
        enabled: body.enabled ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: op.uid,
      action: "oidc.create",
      target: `oidc:${r.id}`,
      detail: auditable(body),
      ip: op.ip,
    });
    return r;
  });
  return present(row);
}

export async function updateProvider(ctx: AppContext, op: Operator, body: UpdateOidcProviderBody) {
  const { id, client_secret, enabled, ...fields } = body;
  const current = await findProvider(ctx, id);
  if (!current) throw notFound("该第三方登录方式");
  // The stored secret was given for one issuer and client: sent to another (the token request
  // goes to whatever the new issuer's discovery names), it would hand it to that server's owner.
  const moved =
    (fields.issuer !== undefined && fields.issuer !== current.issuer) ||
    (fields.client_id !== undefined && fields.client_id !== current.client_id);
  if (moved && client_secret === undefined)
    throw invalid("client_secret", "更改签发者地址或 Client ID 时须重新输入 Client Secret");
  const set = {
    ...fields,
    ...(enabled !== undefined && { enabled: enabled ? 1 : 0 }),
    ...(client_secret !== undefined && { client_secret_enc: await encryptSecret(ctx, client_secret) }),
    updated_at: nowIso(),
  };
  const row = await ctx.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("oidc_providers")
      .set(set)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, {
      operatorUid: op.uid,
      action: "oidc.update",
      target: `oidc:${id}`,
      detail: auditable({ ...fields, enabled, client_secret }),
      ip: op.ip,
    });
    return r;
  });
  discoveries(ctx).delete(id);
  return present(row);
}

/** Deletes a provider nobody is bound to; with bindings it is refused (disable it instead). */
export async function deleteProvider(ctx: AppContext, op: Operator, id: number): Promise<void> {
  if (!(await findProvider(ctx, id))) throw notFound("该第三方登录方式");
  await ctx.db.transaction().execute(async (trx) => {
    const bound = await trx
      .selectFrom("oidc_identities")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("provider_id", "=", id)
      .executeTakeFirstOrThrow();
    if (Number(bound.n) > 0) throw refused(`已有 ${Number(bound.n)} 个账号绑定了该登录方式，请改为停用`);
    await trx.deleteFrom("oidc_flows").where("provider_id", "=", id).execute();
    await trx.deleteFrom("oidc_pending").where("provider_id", "=", id).execute();
    await trx.deleteFrom("oidc_providers").where("id", "=", id).execute();
    await audit(trx, { operatorUid: op.uid, action: "oidc.delete", target: `oidc:${id}`, ip: op.ip });
  });
  discoveries(ctx).delete(id);
}

type Discovery = { version: string; at: number; config: client.Configuration };
/**
 * Discovered provider configurations, per provider, kept for ten minutes (or until the provider
 * changes). The app's own (oidc.module.ts lists it): two apps in one process, as in the tests, never
 * share a provider id's entry.
 */
export const discoveryState = new AppState<Map<number, Discovery>>("oidc.discoveries", () => new Map());
const discoveries = (ctx: AppContext): Map<number, Discovery> => discoveryState.of(ctx);
const DISCOVERY_TTL_MS = 10 * 60 * 1000;

/**
 * The provider's openid-client configuration: its discovery document, the client id and the
 * decrypted secret (client_secret_basic when the provider supports it, else client_secret_post).
 * http is allowed only for the loopback issuers the operator's form accepts.
 */
export async function providerConfig(ctx: AppContext, p: ProviderRecord): Promise<client.Configuration> {
  const version = `${p.updated_at}|${p.issuer}|${p.client_id}`;
  const hit = discoveries(ctx).get(p.id);
  if (hit && hit.version === version && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
  let secret: string;
  try {
    secret = await decryptSecret(ctx, p.client_secret_enc);
  } catch (err) {
    ctx.log.error({ err, provider: p.id }, "oidc: the client secret cannot be decrypted (OIDC_SECRET_KEY changed?)");
    throw refused("第三方登录配置有误，请联系管理员");
  }
  const issuer = new URL(p.issuer);
  let config: client.Configuration;
  try {
    config = await client.discovery(issuer, p.client_id, undefined, client.ClientSecretBasic(secret), {
      timeout: 10,
      ...(issuer.protocol === "http:" && { execute: [client.allowInsecureRequests] }),
    });
    const methods = config.serverMetadata().token_endpoint_auth_methods_supported;
    if (methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post")) {
      config = new client.Configuration(
        config.serverMetadata(),
        p.client_id,
        undefined,
        client.ClientSecretPost(secret),
      );
      if (issuer.protocol === "http:") client.allowInsecureRequests(config);
    }
  } catch (err) {
    ctx.log.warn({ err, provider: p.id, issuer: p.issuer }, "oidc: discovery failed");
    throw refused("无法连接第三方登录服务，请稍后再试");
  }
  discoveries(ctx).set(p.id, { version, at: Date.now(), config });
  return config;
}
