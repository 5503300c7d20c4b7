import net from "node:net";
import { describe, expect, it, type TaskMeta } from "vitest";
import { ssKill } from "../src/enforce";

const canKill = process.getuid?.() === 0;

describe("enforcement on the node", () => {
  it("ss -K closes an established connection on the tunnel's port, and leaves other ports alone", {
    skip: !canKill,
    meta: { skipReason: "ss -K needs root (CAP_NET_ADMIN)" } as TaskMeta,
  }, async () => {
    const accepted: net.Socket[] = [];
    const server = net.createServer((s) => accepted.push(s.on("error", () => {})));
    const other = net.createServer((s) => accepted.push(s.on("error", () => {})));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    await new Promise<void>((r) => other.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as net.AddressInfo).port;
    const otherPort = (other.address() as net.AddressInfo).port;
    const connect = (p: number) =>
      new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(p, "127.0.0.1", () => resolve(s));
        s.once("error", reject);
      });
    const visitor = await connect(port);
    const bystander = await connect(otherPort);
    const closed = new Promise<string>((resolve) => {
      visitor.once("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
      visitor.once("close", () => resolve("close"));
    });
    let bystanderClosed = false;
    bystander.once("close", () => {
      bystanderClosed = true;
    });
    await ssKill(port);
    expect(await closed).toMatch(/ECONNABORTED|ECONNRESET|close|EPIPE/);
    // the connection on the other port still carries data
    const echoed = new Promise<string>((r) => bystander.once("data", (d) => r(d.toString())));
    accepted.find((s) => s.localPort === otherPort)?.write("still here");
    expect(await echoed).toBe("still here");
    expect(bystanderClosed).toBe(false);
    bystander.destroy();
    for (const s of accepted) s.destroy();
    server.close();
    other.close();
  });
});
