import { LaunchCommandsAnswer, LaunchTokenViewAnswer } from "../answers/launch";
import { endpoint } from "../endpoint";
import { type LaunchCommands, LaunchCommandsQuery, type LaunchTokenView } from "../launch";

/**
 * The customer's launch token and the one-line installers built on it (docs/launch.md). Reading
 * them is "tunnels:read", as the frpc.toml they fetch is; rotating and revoking are console only.
 * The installers' own fetches (/launch/<token>/…) are outside /api: plain text, by token.
 */
export const LaunchApi = {
  getUserLaunch: endpoint<LaunchTokenView>()({
    method: "GET",
    url: "/user/launch",
    access: "user",
    scope: "tunnels:read",
    answer: LaunchTokenViewAnswer,
    summary: "the customer's launch token (null when none is issued)",
  }),
  postUserLaunch: endpoint<LaunchTokenView>()({
    method: "POST",
    url: "/user/launch",
    access: "user",
    answer: LaunchTokenViewAnswer,
    summary: "issues a new launch token; installs with the old one stop at their next start",
  }),
  deleteUserLaunch: endpoint<LaunchTokenView>()({
    method: "DELETE",
    url: "/user/launch",
    access: "user",
    answer: LaunchTokenViewAnswer,
    summary: "revokes the launch token; every install stops at its next start",
  }),
  getUserLaunchCommands: endpoint<LaunchCommands>()({
    method: "GET",
    url: "/user/launch/commands",
    access: "user",
    scope: "tunnels:read",
    answer: LaunchCommandsAnswer,
    summary: "one-line installers for a node, per system (issues the launch token on first use)",
    query: LaunchCommandsQuery,
  }),
} as const;
