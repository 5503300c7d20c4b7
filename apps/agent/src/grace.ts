/**
 * The grace while the console is unreachable: the agent keeps deciding from its copy for
 * `graceMs` after the last contact; past that it applies the operator's policy ("keep": go on from
 * the copy; "refuse": refuse new sessions, proxies and visitors) and says so (log and a journaled
 * "grace" event, which the console shows once the link is back). The clock is handed in.
 */
import type { AgentEventBody, GracePolicy } from "@burrow/frp-decision";

export type GraceState = "connected" | "grace" | "expired";

export class Grace {
  /** since when the console is unreachable (epoch ms), null while connected */
  private downSince: number | null;
  private expired = false;

  constructor(
    private readonly graceMs: number,
    readonly policy: GracePolicy,
    private readonly now: () => number,
    private readonly emit: (e: AgentEventBody & { kind: "grace" }) => void,
    /** the last contact before this process started (state.json), so a restart does not extend the grace */
    lastContact: number | null,
  ) {
    this.downSince = lastContact ?? now();
    this.emit({ kind: "grace", data: { state: "entered", policy } });
    this.tick();
  }

  get state(): GraceState {
    return this.downSince === null ? "connected" : this.expired ? "expired" : "grace";
  }

  /** The console answered: the grace, if any, ends. */
  up(): void {
    if (this.downSince === null) return;
    this.downSince = null;
    this.expired = false;
    this.emit({ kind: "grace", data: { state: "left", policy: this.policy } });
  }

  /** The link to the console is lost (the grace counts from `since`, its last sign of life). */
  down(since: number): void {
    if (this.downSince !== null) return;
    this.downSince = since;
    this.emit({ kind: "grace", data: { state: "entered", policy: this.policy } });
    this.tick();
  }

  /** Checks the clock (called every second and before each decision it matters for). */
  tick(): void {
    if (this.downSince === null || this.expired) return;
    if (this.now() - this.downSince >= this.graceMs) {
      this.expired = true;
      this.emit({ kind: "grace", data: { state: "expired", policy: this.policy } });
    }
  }

  /** Whether new sessions, proxies and visitors are refused now. */
  refusing(): boolean {
    this.tick();
    return this.expired && this.policy === "refuse";
  }
}
