import net from "node:net";
import { freePortRange } from "./frp-env";

/**
 * `n` local tcp services on consecutive ports, each greeting a visitor with "svc <its port>\n":
 * which local port a port-range tunnel's remote port reached.
 */
export async function namedServices(n: number): Promise<{ base: number; close: () => void }> {
  const base = await freePortRange(n);
  const servers: net.Server[] = [];
  for (let i = 0; i < n; i++) {
    const srv = net.createServer((s) => {
      s.on("error", () => s.destroy());
      s.end(`svc ${base + i}\n`);
    });
    await new Promise<void>((r) => srv.listen(base + i, "127.0.0.1", r));
    servers.push(srv);
  }
  return {
    base,
    close: () => {
      for (const s of servers) s.close();
    },
  };
}

/** The first line a tcp service at `port` sends a new visitor (rejects on a refusal or a silence of `ms`). */
export function tcpGreeting(port: number, ms = 3_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, "127.0.0.1");
    let got = "";
    const done = (err?: Error) => {
      sock.destroy();
      clearTimeout(timer);
      if (err) reject(err);
    };
    const timer = setTimeout(() => done(new Error(`no greeting from ${port}`)), ms);
    sock.on("data", (d) => {
      got += d.toString();
      const nl = got.indexOf("\n");
      if (nl >= 0) {
        resolve(got.slice(0, nl));
        done();
      }
    });
    sock.on("error", (e) => done(e));
    sock.on("close", () => done(new Error(`closed without a greeting: ${port}`)));
  });
}
