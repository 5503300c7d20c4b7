/**
 * Closes the open visitor connections of a proxy that may no longer carry traffic: frps never
 * closes connections already in flight, and a client that ignores refused heartbeats would keep
 * them. For a tunnel with its own remote port (tcp, and https/http with a port of their own), the
 * kernel destroys every established TCP socket on that local port (`ss -K`, needs CAP_NET_ADMIN,
 * i.e. the agent runs as root). http/https on the shared vhost port cannot be told apart by port:
 * they end with the session, which the refused heartbeat ends (docs/agent.md).
 */
import { execFile } from "node:child_process";

/** Runs the kill for one port; resolves when done (tests hand in their own). */
export type PortKiller = (port: number) => Promise<void>;

export const ssKill: PortKiller = (port) =>
  new Promise((resolve, reject) => {
    execFile(
      "ss",
      ["-K", "-t", "-n", "state", "established", "sport", "=", `:${port}`],
      { timeout: 5000 },
      (err, _out, stderr) =>
        err ? reject(new Error(`ss -K failed for port ${port}: ${stderr || err.message}`)) : resolve(),
    );
  });

/** Kills each blocked port once when it becomes blocked, and again when a blocked tunnel is seen held. */
export class Enforcer {
  /** ports killed while their tunnel stays blocked */
  private readonly cut = new Set<number>();
  readonly calls: number[] = [];

  constructor(
    private readonly kill: PortKiller,
    private readonly log: (msg: string, port: number, reason: string) => void,
  ) {}

  /** One pass over the copy: `blocked` are the ports with the reason they may carry nothing now. */
  apply(blocked: Map<number, { reason: string; held: boolean }>): Promise<void>[] {
    const runs: Promise<void>[] = [];
    for (const [port, b] of blocked) {
      if (this.cut.has(port) && !b.held) continue;
      this.cut.add(port);
      this.calls.push(port);
      this.log("closing open connections", port, b.reason);
      runs.push(this.kill(port).catch((err: Error) => this.log(err.message, port, b.reason)));
    }
    for (const port of this.cut) if (!blocked.has(port)) this.cut.delete(port);
    return runs;
  }
}
