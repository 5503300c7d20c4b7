import { z } from "zod";

/*
 * 一键启动 (issue 33 §1): a per-customer launch token that fetches frpc and the customer's
 * current frpc.toml at every start of an installed service (docs/launch.md).
 */

/** The systems an installer is offered for, in the card's tab order. */
export const LaunchSystems = ["linux", "openwrt", "macos", "windows", "docker"] as const;
export type LaunchSystem = (typeof LaunchSystems)[number];
export const LaunchSystemLabel: Record<LaunchSystem, string> = {
  linux: "Linux",
  openwrt: "OpenWrt",
  macos: "macOS",
  windows: "Windows",
  docker: "Docker",
};

/** GET /user/launch/commands?node_id= */
export const LaunchCommandsQuery = z.object({ node_id: z.coerce.number({ error: "请指定节点" }).int().min(1) });
export type LaunchCommandsQuery = z.infer<typeof LaunchCommandsQuery>;

/** The customer's launch token (null: none yet, or revoked; the next 一键启动 card issues one). */
export interface LaunchTokenView {
  token: string | null;
  created_at: string | null;
}

/** One-line installers of one node, by system. */
export type LaunchCommandSet = Record<LaunchSystem, string>;

export interface LaunchCommands {
  node_id: number;
  node_name: string;
  /** set instead of the commands when the console has no PUBLIC_URL */
  missing: string | null;
  commands: LaunchCommandSet | null;
  /** when the token in the commands was issued */
  token_created_at: string | null;
}
