import fs from "node:fs/promises";
import path from "node:path";
import { TICKET_STORAGE_QUOTA_BYTES, TICKET_UPLOADS_PER_HOUR } from "@burrow/contract";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../../test/harness";
import { PNG, ticketSuite } from "../../../test/ticket-fixtures";
import { MAX_PENDING_UPLOADS } from "./attachments";
import { ticketJobs } from "./jobs";

/* Ticket attachments: upload limits and uploads never sent. */

const suite = ticketSuite();
const { upload, getFile, open } = suite;
let t: TestApp;
beforeAll(() => {
  ({ t } = suite.get());
});

describe("upload limits (issue 30 §6)", () => {
  const HOUR = 3600_000;
  /** Files this customer has under DATA_DIR/uploads/tickets. */
  const filesOf = async (uid: number) =>
    (await fs.readdir(path.resolve(t.ctx.config.DATA_DIR, "uploads", "tickets")).catch(() => [])).filter((f) =>
      f.startsWith(`${uid}-`),
    );
  /** Earlier images of the customer, a day old (files long gone from the disk are no matter here): `bytes` in all. */
  async function earlierImages(u: { uid: number; token: string }, bytes: number) {
    const tk = (await open(u.token)).body.data;
    const day = new Date(Date.now() - 24 * HOUR).toISOString();
    const row = (size: number, attached: boolean, i: number) => ({
      uid: u.uid,
      ticket_id: attached ? tk.ticket_id : null,
      message_id: attached ? tk.messages[0].id : null,
      file: `${u.uid}-earlier${i}.png`,
      mime: "image/png",
      size,
      created_at: day,
    });
    // Half attached to a message, half never sent: both count.
    const half = Math.floor(bytes / 2);
    await t.db
      .insertInto("ticket_attachments")
      .values([row(half, true, 1), row(bytes - half, false, 2)])
      .execute();
  }

  it("upload three, send them in a reply, repeat: the hourly rate holds, with a clear message", async () => {
    const u = await t.register();
    const tk = (await open(u.token)).body.data.ticket_id;
    let accepted = 0;
    let refusal: Awaited<ReturnType<typeof upload>> | undefined;
    for (let round = 0; !refusal && round < TICKET_UPLOADS_PER_HOUR; round++) {
      const ids: number[] = [];
      for (let i = 0; i < 3 && !refusal; i++) {
        const r = await upload(u.token, PNG);
        if (r.body.code === "SUCCESS") ids.push(r.body.data.id);
        else refusal = r;
      }
      accepted += ids.length;
      if (ids.length) {
        const sent = await t.api("POST", `/user/ticket/${tk}/reply`, {
          token: u.token,
          body: { content: "截图", attachments: ids },
        });
        expect(sent.body.code).toBe("SUCCESS");
      }
    }
    expect(accepted).toBe(TICKET_UPLOADS_PER_HOUR);
    expect([refusal?.status, refusal?.body.code]).toEqual([403, 2001]);
    expect(refusal?.body.msg).toMatch(
      new RegExp(`^每小时最多上传 ${TICKET_UPLOADS_PER_HOUR} 张图片，请 \\d+ 分钟后再试$`),
    );
    expect(await filesOf(u.uid)).toHaveLength(TICKET_UPLOADS_PER_HOUR);
    // An hour after those uploads the customer may upload again.
    await t.db
      .updateTable("ticket_attachments")
      .set({ created_at: new Date(Date.now() - HOUR - 1000).toISOString() })
      .where("uid", "=", u.uid)
      .execute();
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
  });

  it("a storage quota over all of a customer's images, attached or not", async () => {
    const u = await t.register();
    await earlierImages(u, TICKET_STORAGE_QUOTA_BYTES - 2 * PNG.length);
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS"); // exactly the quota now
    const over = await upload(u.token, PNG);
    expect([over.status, over.body.code]).toEqual([403, 2001]);
    expect(over.body.msg).toBe(
      `工单图片已达每个账户 ${TICKET_STORAGE_QUOTA_BYTES / 1024 / 1024} MB 的上限，不能再上传；请用文字描述问题`,
    );
    expect(await filesOf(u.uid)).toHaveLength(2);
  });

  it("30 uploads at once: exactly the pending cap is stored (counted under the customer's lock)", async () => {
    const u = await t.register();
    const results = await Promise.all(Array.from({ length: 30 }, () => upload(u.token, PNG)));
    const ok = results.filter((r) => r.body.code === "SUCCESS");
    expect(ok).toHaveLength(MAX_PENDING_UPLOADS);
    for (const r of results.filter((x) => x.body.code !== "SUCCESS")) {
      expect([r.status, r.body.code]).toEqual([403, 2001]);
      expect(r.body.msg).toContain("未提交的图片过多");
    }
    const rows = await t.db.selectFrom("ticket_attachments").select("file").where("uid", "=", u.uid).execute();
    expect(rows).toHaveLength(MAX_PENDING_UPLOADS);
    expect((await filesOf(u.uid)).sort()).toEqual(rows.map((r) => r.file).sort());
  });

  it("uploads at once near the quota: never more than the quota is stored", async () => {
    const u = await t.register();
    await earlierImages(u, TICKET_STORAGE_QUOTA_BYTES - 3 * PNG.length);
    const results = await Promise.all(Array.from({ length: 12 }, () => upload(u.token, PNG)));
    expect(results.filter((r) => r.body.code === "SUCCESS")).toHaveLength(3);
    const sum = await t.db
      .selectFrom("ticket_attachments")
      .select((eb) => eb.fn.sum<number>("size").as("n"))
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    expect(Number(sum.n)).toBe(TICKET_STORAGE_QUOTA_BYTES);
    expect(await filesOf(u.uid)).toHaveLength(3);
  });

  it("refuses every upload while the data directory's free space is below UPLOAD_MIN_FREE_MB, writing nothing", async () => {
    const u = await t.register();
    const config = t.ctx.config;
    const floor = config.UPLOAD_MIN_FREE_MB;
    const st = await fs.statfs(config.DATA_DIR);
    // A floor above what the disk has free: the state of a nearly full disk.
    config.UPLOAD_MIN_FREE_MB = Math.ceil((st.bavail * st.bsize) / 1024 / 1024) + 1024;
    try {
      const r = await upload(u.token, PNG);
      expect([r.status, r.body.code]).toEqual([403, 2001]);
      expect(r.body.msg).toBe("服务器存储空间不足，暂时不能上传图片，请稍后再试");
    } finally {
      config.UPLOAD_MIN_FREE_MB = floor;
    }
    expect(await t.db.selectFrom("ticket_attachments").select("id").where("uid", "=", u.uid).execute()).toEqual([]);
    expect(await filesOf(u.uid)).toEqual([]);
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
  });
});

describe("uploads never sent", () => {
  const HOUR = 3600_000;
  const dir = () => path.resolve(t.ctx.config.DATA_DIR, "uploads", "tickets");
  const fileOf = async (id: number) =>
    (await t.db.selectFrom("ticket_attachments").select("file").where("id", "=", id).executeTakeFirstOrThrow()).file;
  const age = (ids: number[], hours: number) =>
    t.db
      .updateTable("ticket_attachments")
      .set({ created_at: new Date(Date.now() - hours * HOUR).toISOString() })
      .where("id", "in", ids)
      .execute();
  const exists = (file: string) =>
    fs.access(path.join(dir(), file)).then(
      () => true,
      () => false,
    );

  it("are deleted after 24 hours, row and file, by the hourly job: the customer can upload again", async () => {
    const u = await t.register();
    const other = await t.register();
    // One image sent in a ticket, then the unsent cap filled by a form abandoned.
    const sent = (await upload(u.token, PNG)).body.data.id;
    expect((await open(u.token, { attachments: [sent] })).body.code).toBe("SUCCESS");
    const unsent: number[] = [];
    for (let i = 0; i < MAX_PENDING_UPLOADS; i++) unsent.push((await upload(u.token, PNG)).body.data.id);
    expect((await upload(u.token, PNG)).status).toBe(403);
    const unsentFiles = await Promise.all(unsent.map(fileOf));
    // Another customer's upload of 23 hours is still within its day.
    const recent = (await upload(other.token, PNG)).body.data.id;
    await age([sent, ...unsent], 25);
    await age([recent], 23);

    const job = ticketJobs.find((j) => j.name === "tickets.unsent-uploads");
    expect(job?.everyMs).toBe(HOUR);
    expect(await job?.run(t.ctx)).toBeGreaterThanOrEqual(MAX_PENDING_UPLOADS);

    const left = await t.db
      .selectFrom("ticket_attachments")
      .select("id")
      .where("id", "in", [sent, recent, ...unsent])
      .execute();
    expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual([sent, recent].sort((a, b) => a - b));
    for (const f of unsentFiles) expect(await exists(f)).toBe(false);
    expect(await exists(await fileOf(sent))).toBe(true);
    expect(await exists(await fileOf(recent))).toBe(true);
    expect((await getFile(unsent[0], u.token)).statusCode).toBe(404);
    expect((await getFile(sent, u.token)).statusCode).toBe(200);
    // The cap counts what is left: uploads are taken again, and a deleted one cannot be sent.
    expect((await upload(u.token, PNG)).body.code).toBe("SUCCESS");
    const stale = await open(u.token, { attachments: [unsent[1]] });
    expect([stale.status, stale.body.code]).toEqual([400, 10000]);
    expect(stale.body.msg).toContain("attachments");
    // Run again: nothing more to delete for these customers.
    await job?.run(t.ctx);
    expect(
      await t.db.selectFrom("ticket_attachments").select("id").where("id", "in", [sent, recent]).execute(),
    ).toHaveLength(2);
  });
});
