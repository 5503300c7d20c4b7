import { ErrorCode, type Scope } from "@burrow/contract";
import { AppError } from "./errors";

/**
 * Who is calling, whatever credential they presented: what `defineRoute` hands a handler as
 * `user` and what the role and scope checks read.
 */
export interface Principal {
  uid: number;
  role: number;
  /** the credential kind that recognised the request ("session"; later "token") */
  kind: string;
  /** the credential's own id (a session id, a token id): what revoking it names */
  credentialId: string;
  /** the scopes it grants: "all" for a console session, else exactly these */
  scopes: "all" | ReadonlySet<Scope>;
  /** what a scope refusal calls the credential ("API 令牌"); "当前登录凭证" when absent */
  label?: string;
}

/**
 * One way of proving who calls. A module registers its kind on `ctx.auth` while the app is built
 * (auth: the session JWT); the route layer never knows the kinds. See CONTRIBUTING.md, "Adding a
 * credential kind".
 */
export interface CredentialKind {
  /** unique among the registered kinds; becomes Principal.kind */
  readonly name: string;
  /**
   * Whether a bearer value is of this kind, by its shape alone (a prefix, three JWT segments):
   * no I/O. The first registered kind that claims it authenticates it; no other is tried.
   */
  claims(bearer: string): boolean;
  /** The caller, or a 401/403 AppError (expired, revoked, banned, …). `meta`: the request's, where known. */
  authenticate(bearer: string, meta?: CallMeta): Promise<Principal>;
}

/** What a kind may record of the call presenting it (an API token's last use). */
export interface CallMeta {
  ip: string;
}

const unauthenticated = (msg: string) => new AppError(ErrorCode.TokenMissing, 401, msg);

/** Whether `p` may call an endpoint needing `scope` (null: a public endpoint). */
export function grants(p: Principal, scope: Scope | null): boolean {
  return scope === null || p.scopes === "all" || p.scopes.has(scope);
}

/** The credential kinds of this app and the one authentication path through them (`ctx.auth`). */
export class Authenticator {
  private readonly kinds: CredentialKind[] = [];

  register(kind: CredentialKind): void {
    if (this.kinds.some((k) => k.name === kind.name)) throw new Error(`credential kind ${kind.name} registered twice`);
    this.kinds.push(kind);
  }

  /** The registered kinds' names, in the order they are tried. */
  get names(): string[] {
    return this.kinds.map((k) => k.name);
  }

  /**
   * Authenticates an `Authorization` header ("Bearer <credential>"): 401/30001 without one or when
   * no kind claims it; otherwise whatever the claiming kind answers.
   */
  async authenticate(authorization: string | undefined, meta?: CallMeta): Promise<Principal> {
    const bearer = authorization?.startsWith("Bearer ") ? authorization.slice(7).trim() : "";
    if (!bearer) throw unauthenticated("请先登录");
    const kind = this.kinds.find((k) => k.claims(bearer));
    if (!kind) throw unauthenticated("登录凭证无效，请重新登录");
    return kind.authenticate(bearer, meta);
  }

  /**
   * Authenticates and checks that the credential grants `scope`: 403/30004 naming the scope when
   * it does not (the role is the caller's business: route.ts checks it before the scope).
   */
  async require(authorization: string | undefined, scope: Scope): Promise<Principal> {
    const p = await this.authenticate(authorization);
    assertScope(p, scope);
    return p;
  }
}

/** 403/30004 when the principal's credential does not grant `scope`. */
export function assertScope(p: Principal, scope: Scope | null): void {
  if (!grants(p, scope))
    throw new AppError(
      ErrorCode.NoPermission,
      403,
      `${p.label ?? "当前登录凭证"}无权调用此接口（需要权限范围 ${scope}）`,
    );
}
