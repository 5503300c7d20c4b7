import { ErrorCode, Role } from "@burrow/contract";
import { parseAgentAuthorization, secretEquals } from "@burrow/frp-decision";
import type { AppContext } from "../../context";
import type { CredentialKind, Principal } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { frpRuntime } from "../frp/frp.routes";

/** What a node's credential is recognised by: `<node_id>.<secret>` (a JWT has three segments, a secret no dot). */
const NODE_BEARER = /^\d{1,10}\.[A-Za-z0-9_-]{1,200}$/;

const refusedCredential = () => new AppError(ErrorCode.TokenMissing, 401, "节点凭证无效");

/**
 * The node agent's credential kind on ctx.auth: `Bearer <node_id>.<plugin secret>`, the secret
 * compared in constant time with the node's, looked up through the frp decision cache (the node
 * list it keeps in memory: an unknown id costs no query per request). It grants the "agent" scope
 * only, so the node reaches the three /agent routes and nothing else; the routes also refuse
 * every other kind (nodeOf), because a console session grants every scope.
 */
export function nodeCredential(ctx: AppContext): CredentialKind {
  return {
    name: "node",
    claims: (bearer) => NODE_BEARER.test(bearer),
    authenticate: async (bearer): Promise<Principal> => {
      const presented = parseAgentAuthorization(`Bearer ${bearer}`);
      if (!presented) throw refusedCredential();
      const node = await frpRuntime(ctx).cache.node(presented.nodeId);
      // Compared even for an unknown node (against itself) so that the answer's timing says nothing.
      const stored = node?.secret ?? presented.secret;
      if (!secretEquals(presented.secret, stored) || !node) throw refusedCredential();
      return {
        uid: 0,
        role: Role.Customer,
        kind: "node",
        credentialId: String(node.node_id),
        scopes: new Set(["agent"]),
      };
    },
  };
}

/** The calling node's id; 403/30004 for any credential but a node's (a console session grants every scope). */
export function nodeOf(p: Principal): number {
  if (p.kind !== "node") throw new AppError(ErrorCode.NoPermission, 403, "仅节点代理凭证可调用此接口");
  return Number(p.credentialId);
}
