import net from "node:net";

/**
 * A customer's local service that expects a PROXY protocol header (v1 text or v2 binary, TCP over
 * IPv4) before the visitor's bytes, as haproxy or nginx `proxy_protocol` would: it answers every
 * request with what the header said, as JSON in an HTTP response, so a tcp and an http tunnel can
 * both be read by one client (visit). A connection without a header is answered with `none`.
 */
export interface ProxyHeaderSeen {
  version: "v1" | "v2" | "none";
  ip: string;
  port: number;
}

const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);

/** The header at the start of `buf` and the bytes after it, or null while it is incomplete. */
function parseHeader(buf: Buffer): { seen: ProxyHeaderSeen; rest: Buffer } | null {
  if (buf.length >= 16 && buf.subarray(0, 12).equals(V2_SIGNATURE)) {
    const len = buf.readUInt16BE(14);
    if (buf.length < 16 + len) return null;
    // family 0x11: TCP over IPv4, then src addr, dst addr, src port, dst port
    if (buf[13] !== 0x11) throw new Error(`unexpected v2 family ${buf[13]}`);
    const a = buf.subarray(16, 20);
    return { seen: { version: "v2", ip: [...a].join("."), port: buf.readUInt16BE(24) }, rest: buf.subarray(16 + len) };
  }
  if (buf.subarray(0, 6).toString() === "PROXY ") {
    const end = buf.indexOf("\r\n");
    if (end < 0) return null;
    // PROXY TCP4 <src> <dst> <srcport> <dstport>
    const f = buf.subarray(0, end).toString().split(" ");
    return { seen: { version: "v1", ip: f[2], port: Number(f[4]) }, rest: buf.subarray(end + 2) };
  }
  // Neither header can start this way: the visitor's own bytes came first.
  if (buf.length >= 6 && buf[0] !== 0x0d) return { seen: { version: "none", ip: "", port: 0 }, rest: buf };
  return null;
}

export async function proxyProtocolService(): Promise<{ port: number; close: () => void }> {
  const server = net.createServer((sock) => {
    let buf: Buffer = Buffer.alloc(0);
    let seen: ProxyHeaderSeen | null = null;
    sock.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (!seen) {
        const parsed = parseHeader(buf);
        if (!parsed) return;
        seen = parsed.seen;
        buf = parsed.rest;
      }
      // the visitor's HTTP request, whole
      if (!buf.includes("\r\n\r\n")) return;
      const body = JSON.stringify(seen);
      sock.end(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`);
    });
    sock.on("error", () => sock.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { port: (server.address() as net.AddressInfo).port, close: () => server.close() };
}

/** One visit through the tunnel: its own source port, and what the local service says it saw. */
export function visit(port: number, host: string, ms = 5_000): Promise<{ sourcePort: number; seen: ProxyHeaderSeen }> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no answer through port ${port} within ${ms} ms`));
    }, ms);
    let data = "";
    let sourcePort = 0;
    sock.on("connect", () => {
      sourcePort = sock.localPort as number;
      sock.write(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    });
    sock.on("data", (d) => {
      data += d.toString();
    });
    sock.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    sock.on("close", () => {
      clearTimeout(timer);
      const body = data.slice(data.indexOf("\r\n\r\n") + 4);
      try {
        resolve({ sourcePort, seen: JSON.parse(body) as ProxyHeaderSeen });
      } catch {
        reject(new Error(`unexpected answer: ${JSON.stringify(data.slice(0, 200))}`));
      }
    });
  });
}
