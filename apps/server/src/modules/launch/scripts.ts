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
  return {
    linux: `curl -fsSL ${shq(`${api}/install.sh`)} | sudo sh`,
    // OpenWrt has no curl or sudo by default: busybox wget (uclient-fetch) as root
    openwrt: `wget -qO- ${shq(`${api}/install.sh`)} | sh`,
    macos: `curl -fsSL ${shq(`${api}/install.sh`)} | sudo sh`,
    // in PowerShell run as administrator; the address single-quoted for PowerShell
    windows: `irm ${psq(`${api}/install.ps1`)} | iex`,
    // The wrapper is fetched once here; the container runs it at every (re)start.
    docker: `S=$(curl -fsSL ${shq(`${api}/start.sh`)}) && docker run -d --restart unless-stopped --network host --name ${name} -e BURROW_PREFIX=/tmp/burrow ${DOCKER_IMAGE} sh -c "$S"`,
  };
}
