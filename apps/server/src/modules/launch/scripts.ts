import type { LaunchCommandSet } from "@burrow/contract";
import { psq, shq } from "../../shared/quote";
import { type LaunchTarget, launchBase, serviceName } from "./posix-scripts";

/** The public image the Docker command runs the start wrapper in: Alpine with curl, sh and sha256sum. */
export const DOCKER_IMAGE = "curlimages/curl:8.11.1";

/**
 * The one-line commands of the 一键启动 card. Every value is quoted for the shell that runs it:
 * the PUBLIC_URL's path and the token reach the command only through shq or PowerShell quotes.
 */
export function launchCommands(t: LaunchTarget): LaunchCommandSet {
  const api = launchBase(t);
  const name = serviceName(t);
  // an https console: curl may not be redirected to plain http on the way
  const proto = api.startsWith("https:") ? " --proto '=https' --proto-redir '=https'" : "";
  return {
    linux: `curl -fsSL${proto} -- ${shq(`${api}/install.sh`)} | sudo sh`,
    // OpenWrt has no curl or sudo by default: busybox wget (uclient-fetch) as root
    openwrt: `wget -qO- -- ${shq(`${api}/install.sh`)} | sh`,
    macos: `curl -fsSL${proto} -- ${shq(`${api}/install.sh`)} | sudo sh`,
    // in PowerShell run as administrator; the address single-quoted for PowerShell
    windows: `irm ${psq(`${api}/install.ps1`)} | iex`,
    // The wrapper (it holds the token) is saved once in a 0600 file the container mounts and runs at
    // every (re)start: not in `sh -c "…"` (every local user's ps) nor in -e (docker inspect). The
    // container runs as root so it can read a file private to the user who ran this.
    docker: `(umask 077 && mkdir -p "$HOME/.burrow" && curl -fsSL${proto} -o "$HOME/.burrow/${name}.sh" -- ${shq(`${api}/start.sh`)}) && docker run -d --restart unless-stopped --network host --name ${name} -u 0 -v "$HOME/.burrow/${name}.sh:/burrow/start.sh:ro" -e BURROW_PREFIX=/tmp/burrow ${DOCKER_IMAGE} sh /burrow/start.sh`,
  };
}
