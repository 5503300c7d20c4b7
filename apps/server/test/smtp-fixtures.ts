import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A real SMTP server in the test (notices' e-mail): every message it receives, raw. */
export interface Inbox {
  url: string;
  mails: { to: string[]; raw: string }[];
  close(): Promise<void>;
}

/**
 * Starts one on a free port. Recipients whose local part starts with "bounce" are refused
 * permanently (550, as for an unknown mailbox) and "busy" ones temporarily (451), so a test can
 * see what the console makes of a refused send.
 */
export async function startSmtp(): Promise<Inbox> {
  const mails: Inbox["mails"] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, done) {
      const refuse = (code: number, text: string) => done(Object.assign(new Error(text), { responseCode: code }));
      if (address.address.startsWith("bounce")) return refuse(550, "5.1.1 mailbox unavailable");
      if (address.address.startsWith("busy")) return refuse(451, "4.3.0 try again later");
      done();
    },
    onData(stream, session, done) {
      let raw = "";
      stream.on("data", (c: Buffer) => {
        raw += c.toString("utf8");
      });
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** The decoded text of a received message (nodemailer writes UTF-8 bodies quoted-printable or base64). */
export function textOf(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  if (/content-transfer-encoding:\s*base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString();
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head))
    return Buffer.from(
      body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(Number.parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
  return body;
}

/** The decoded Subject header of a received message. */
export const subjectOf = (raw: string) => {
  const m = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
  return m.replace(/\r?\n[ \t]/g, "").replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, s: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(s, "base64").toString()
      : Buffer.from(
          s.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (__, h) => String.fromCharCode(Number.parseInt(h, 16))),
          "latin1",
        ).toString("utf8"),
  );
};
