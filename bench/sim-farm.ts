// A child process holding the poller bench's simulated frps nodes, so that serving their
// dashboards does not share the poller's CPU (a real frps runs on its own machine). Driven over IPC.
import { FrpsSim } from "@burrow/frps-sim";

export type FarmRequest =
  | { id: number; cmd: "start"; nodes: { user: string; name: string; port: number }[][]; password: string }
  | { id: number; cmd: "traffic"; share: number }
  | { id: number; cmd: "rollover" }
  | { id: number; cmd: "stop" };

const sims: FrpsSim[] = [];

async function handle(m: FarmRequest): Promise<unknown> {
  if (m.cmd === "start") {
    const urls: string[] = [];
    for (const proxies of m.nodes) {
      const sim = new FrpsSim({ webServer: { port: 0, user: "admin", password: m.password } });
      await sim.start();
      const sessions = new Map<string, Awaited<ReturnType<FrpsSim["login"]>>>();
      for (const p of proxies) {
        let s = sessions.get(p.user);
        if (!s) {
          s = await sim.login({ user: p.user });
          sessions.set(p.user, s);
        }
        await s.newProxy({ name: p.name, type: "tcp", remotePort: p.port });
      }
      sims.push(sim);
      urls.push(sim.dashboardUrl);
    }
    return urls;
  }
  if (m.cmd === "traffic") {
    const every = Math.round(1 / m.share);
    for (const sim of sims) {
      let i = 0;
      for (const name of sim.stats.keys()) if (i++ % every === 0) sim.addTraffic(name, 4096, 16384);
    }
    return true;
  }
  if (m.cmd === "rollover") {
    for (const sim of sims) sim.rollover();
    return true;
  }
  for (const sim of sims) await sim.stop();
  setImmediate(() => process.exit(0));
  return true;
}

process.on("message", (m: FarmRequest) => {
  handle(m).then(
    (result) => process.send?.({ id: m.id, result }),
    (err: Error) => process.send?.({ id: m.id, error: err.message }),
  );
});
