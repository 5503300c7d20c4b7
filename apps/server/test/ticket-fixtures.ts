import type { AdminNodeDetail, TicketAttachmentView, TicketDetail } from "@burrow/contract";
import { afterAll, beforeAll } from "vitest";
import { createTestNode } from "./frp-fixtures";
import { createTestApp, type TestApp } from "./harness";

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100" +
    "05fe02fea72d7d0000000049454e44ae426082",
  "hex",
);

/**
 * The set-up of the tickets module's suites: one app, a manager's and a support agent's token, a
 * node; uploads, downloads and new tickets as the customer's browser sends them. `get()` gives the
 * app and tokens once the file's beforeAll ran.
 */
export function ticketSuite() {
  const s = {
    t: undefined as unknown as TestApp,
    admin: "",
    support: "",
    node: undefined as unknown as AdminNodeDetail,
  };
  beforeAll(async () => {
    s.t = await createTestApp();
    s.admin = await s.t.adminToken();
    const agent = await s.t.register();
    await s.t.api("PATCH", "/super/user/info", { token: s.admin, body: { uid: agent.uid, role: 2 } });
    s.support = await s.t.login(agent.phone, agent.password);
    s.node = await createTestNode(s.t, { bandwidth: 0 }, s.admin);
  });
  afterAll(() => s.t.close());

  return {
    get: () => s,
    /** Posts a file as multipart, as the ticket form does. */
    async upload(token: string, file: Buffer, filename = "a.png", type = "image/png") {
      const { t } = s;
      const boundary = "----burrowtickets";
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: "POST",
        url: "/api/user/ticket/attachment",
        headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      return {
        status: res.statusCode,
        body: res.json() as { code: string | number; msg: string; data: TicketAttachmentView },
      };
    },
    getFile: (id: number, token?: string) =>
      s.t.app.inject({
        method: "GET",
        url: `/api/user/ticket/attachment/${id}`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      }),
    /** Opens a ticket (a tunnel problem unless `body` says otherwise). */
    open: (token: string, body: Record<string, unknown> = {}) =>
      s.t.api<TicketDetail>("POST", "/user/ticket", {
        token,
        body: { title: "隧道连不上", category: "tunnel", content: "frpc 报错 login to server failed", ...body },
      }),
  };
}
