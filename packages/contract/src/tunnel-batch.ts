import { z } from "zod";
import { Id } from "./nodes";

/** At most this many tunnels in one batch call (what one page of 我的隧道 can select, and a bound on the work). */
export const TUNNEL_BATCH_MAX = 50;

export const TunnelBatchActions = ["enable", "disable", "delete"] as const;
export const TunnelBatchActionLabel: Record<(typeof TunnelBatchActions)[number], string> = {
  enable: "启用",
  disable: "停用",
  delete: "删除",
};

/**
 * POST /user/tun/batch: one action on several of the customer's tunnels. Any id that is not one
 * of the customer's live tunnels refuses the whole call (404) before anything changes.
 */
export const TunnelBatchBody = z.object({
  tun_ids: z
    .array(Id)
    .min(1, "请选择隧道")
    .max(TUNNEL_BATCH_MAX, `一次最多操作 ${TUNNEL_BATCH_MAX} 条隧道`)
    .refine((ids) => new Set(ids).size === ids.length, "隧道重复"),
  action: z.enum(TunnelBatchActions, { error: "操作只能是 enable、disable 或 delete" }),
});
export type TunnelBatchBody = z.infer<typeof TunnelBatchBody>;

/** What a batch did: the tunnels changed, and each one refused with the single call's code and message. */
export interface TunnelBatchResult {
  done: number[];
  failed: { tun_id: number; code: number; msg: string }[];
}

/**
 * POST /user/tun/move: the tunnel to another node. tcp/udp: `remote_port` there (absent: the same
 * number, 0: a random free one); http(s): the same domains, checked again on that node.
 */
export const MoveTunnelBody = z.object({
  tun_id: Id,
  node_id: Id,
  remote_port: z.number().int().min(0).max(65535).optional(),
});
export type MoveTunnelBody = z.infer<typeof MoveTunnelBody>;

export const TunnelBatchResultAnswer = z.strictObject({
  done: z.array(z.number().int()).describe("tunnels the action was applied to"),
  failed: z
    .array(z.strictObject({ tun_id: z.number().int(), code: z.number().int(), msg: z.string() }))
    .describe("tunnels refused, with the single call's code and message"),
});
