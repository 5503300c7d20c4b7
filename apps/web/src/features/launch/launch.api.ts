import { LaunchApi } from "@burrow/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/api/client";

export const launchKeys = {
  all: ["launch"] as const,
  token: () => [...launchKeys.all, "token"] as const,
  commands: (nodeId: number) => [...launchKeys.all, "commands", nodeId] as const,
};

/** GET /user/launch: the launch token (null when none is issued). */
export const launchTokenQuery = () =>
  queryOptions({
    queryKey: launchKeys.token(),
    queryFn: ({ signal }) => api.call(LaunchApi.getUserLaunch, {}, { signal }),
  });

/** GET /user/launch/commands: one node's one-line installers (issues the token on first use). */
export const launchCommandsQuery = (nodeId: number) =>
  queryOptions({
    queryKey: launchKeys.commands(nodeId),
    queryFn: ({ signal }) => api.call(LaunchApi.getUserLaunchCommands, { query: { node_id: nodeId } }, { signal }),
  });

/** POST /user/launch: a new token; installs with the old one stop at their next start. */
export const rotateLaunchToken = () => api.call(LaunchApi.postUserLaunch, {});

/** DELETE /user/launch: every install stops at its next start. */
export const revokeLaunchToken = () => api.call(LaunchApi.deleteUserLaunch, {});
