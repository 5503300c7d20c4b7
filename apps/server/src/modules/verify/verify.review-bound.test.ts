import fs from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import type {
  AdminVerifyReview,
  AdminVerifyView,
  Paged,
  VerifyQueueRow,
  VerifyStartResult,
  VerifyState,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import {
  idImage,
  idNumbers,
  manualReviewApp,
  multipart,
  postReview,
  REDIRECT_ENV,
} from "../../../test/verify-fixtures";

/*
 * The review after issue 30 (an attacker's reading of the verify module):
 * 1. an approval applied to whatever the customer had submitted last, not what the operator saw;
 * 2. a redirect hold was renewed by submitting X, Y, X, and a refusal because of a hold was not
 *    shown to operators;
 * 3. review photos skipped the disk guard, and one account could buffer any number at once;
 * 4. support staff could read the full name, number and photos (only Managers decide).
 */

const idNumber = idNumbers(700);
const photos = () => ({ id_front: idImage("png"), id_back: idImage("jpg") });
const photo = (app: TestApp, token: string, query: Record<string, string>) =>
  app.app.inject({
    method: "GET",
    url: "/api/super/user/verify/photo",
    query,
    headers: { authorization: `Bearer ${token}` },
  });

describe("a manual review's decision is bound to the submission the Manager reviewed", () => {
  let m: TestApp;
  let admin: string;
  beforeAll(async () => ({ m, admin } = await manualReviewApp()));
  afterAll(() => m.close());

  const review = (uid: number) =>
    m.api<AdminVerifyReview>("GET", "/super/user/verify/review", { token: admin, query: { uid } });
  const decide = (body: object) => m.api<AdminVerifyView>("POST", "/super/user/verify", { token: admin, body });
  const status = async (token: string) => (await m.api<VerifyState>("GET", "/user/verify", { token })).body.data.status;

  it("refuses an approval of a resubmission the Manager has not seen (409), approves what was seen", async () => {
    const c = await m.register();
    const zhao = { real_name: "赵六", id_number: "110101199003070118" };
    expect((await postReview(m, c.token, zhao, photos())).body.data.status).toBe(2);
    const seen = await review(c.uid);
    expect(seen.body.data).toMatchObject({ real_name: "赵六", id_number: zhao.id_number });
    expect(seen.body.data.version).toMatch(/^[0-9a-f]{32}$/);

    // The customer resubmits another person's name and number while the Manager looks.
    const qian = { real_name: "钱七", id_number: "110101199003070126" };
    expect((await postReview(m, c.token, qian, photos())).body.data.status).toBe(2);

    const stale = await decide({ uid: c.uid, action: "approve", version: seen.body.data.version });
    expect([stale.status, stale.body.code, stale.body.msg]).toEqual([409, 40008, "资料已更新，请重新审核"]);
    // A rejection meant for the first submission does not hit the second one either.
    const staleReject = await decide({
      uid: c.uid,
      action: "reject",
      reason: "照片模糊",
      version: seen.body.data.version,
    });
    expect(staleReject.status).toBe(409);
    // Nor does an approval without the version: the Manager must have opened the review.
    const blind = await decide({ uid: c.uid, action: "approve" });
    expect([blind.status, blind.body.code]).toEqual([400, 10000]);
    expect(blind.body.msg).toContain("version");
    // A photo fetched with the old version is refused too: name and photos always belong together.
    const oldPhoto = await photo(m, admin, { uid: String(c.uid), kind: "id_front", version: seen.body.data.version });
    expect(oldPhoto.statusCode).toBe(409);
    expect(await status(c.token)).toBe(2);
    const row = await m.db
      .selectFrom("verifications")
      .select(["status", "evidence_key"])
      .where("uid", "=", c.uid)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(2);
    expect(row.evidence_key).not.toBeNull();

    // Reviewed again: 钱七, a new version, which approves.
    const again = await review(c.uid);
    expect(again.body.data).toMatchObject({ real_name: "钱七", id_number: qian.id_number });
    expect(again.body.data.version).not.toBe(seen.body.data.version);
    const fresh = await photo(m, admin, { uid: String(c.uid), kind: "id_front", version: again.body.data.version });
    expect(fresh.statusCode).toBe(200);
    const ok = await decide({ uid: c.uid, action: "approve", version: again.body.data.version });
    expect(ok.body.data).toMatchObject({ status: 1, real_name: "钱*" });
    expect(await status(c.token)).toBe(1);
  });

  it("keeps a reset and a rejection without a version working (the user detail card's actions)", async () => {
    const c = await m.register();
    await postReview(m, c.token, { real_name: "孙八", id_number: idNumber() }, photos());
    const rej = await decide({ uid: c.uid, action: "reject", reason: "照片不清晰" });
    expect(rej.body.data).toMatchObject({ status: 3, reason: "照片不清晰" });
    const reset = await decide({ uid: c.uid, action: "reset" });
    expect(reset.body.data.status).toBe(0);
    // A malformed version is bad input naming the field, changing nothing.
    await postReview(m, c.token, { real_name: "孙八", id_number: idNumber() }, photos());
    const bad = await decide({ uid: c.uid, action: "approve", version: "not-a-version" });
    expect([bad.status, bad.body.code]).toEqual([400, 10000]);
    expect(bad.body.msg).toContain("version");
    expect(await status(c.token)).toBe(2);
  });
});

describe("review photos: the disk guard and one submission at a time", () => {
  it("refuses photos when the disk would fall under UPLOAD_MIN_FREE_MB, storing nothing", async () => {
    const full = await createTestApp({ VERIFY_PROVIDER: "manual", UPLOAD_MIN_FREE_MB: String(1024 * 1024 * 1024) });
    try {
      const c = await full.register();
      const r = await postReview(full, c.token, { real_name: "张三", id_number: idNumber() }, photos());
      expect([r.status, r.body.code]).toEqual([403, 2001]);
      expect(r.body.msg).toContain("存储空间不足");
      expect(await full.db.selectFrom("verifications").select("uid").where("uid", "=", c.uid).execute()).toEqual([]);
      const dir = path.join(full.ctx.config.DATA_DIR, "uploads", "verify");
      expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    } finally {
      await full.close();
    }
  });

  it("refuses a second submission of the same account while the first one is still uploading", async () => {
    const m = await createTestApp({ VERIFY_PROVIDER: "manual" });
    try {
      const c = await m.register();
      const other = await m.register();
      const first = await multipart({ real_name: "张三", id_number: idNumber() }, photos());
      // The first submission's body arrives slowly: half of it now, the rest later.
      const slow = new PassThrough();
      const cut = Math.floor(first.payload.length / 2);
      slow.write(first.payload.subarray(0, cut));
      const firstRes = m.app.inject({
        method: "POST",
        url: "/api/user/verify/review",
        headers: { authorization: `Bearer ${c.token}`, "content-type": first.contentType },
        payload: slow,
      });
      // Counted: its handler is running and reading the body.
      await vi.waitFor(async () => expect(await m.ctx.limiter.peek(`verify-submit:${c.uid}`)).toBe(1), {
        timeout: 10_000,
      });
      const second = await postReview(m, c.token, { real_name: "张三", id_number: idNumber() }, photos());
      expect([second.status, second.body.code]).toEqual([403, 2001]);
      expect(second.body.msg).toContain("正在上传");
      // Another account is not held up.
      const theirs = await postReview(m, other.token, { real_name: "李四", id_number: idNumber() }, photos());
      expect(theirs.body.data.status).toBe(2);

      slow.end(first.payload.subarray(cut));
      const done = await firstRes;
      expect(done.statusCode).toBe(200);
      expect((done.json() as { data: VerifyStartResult }).data.status).toBe(2);
      // Finished: the account may submit again.
      const later = await postReview(m, c.token, { real_name: "张三", id_number: idNumber() }, photos());
      expect(later.body.data.status).toBe(2);
    } finally {
      await m.close();
    }
  });
});

describe("a redirect provider's hold", () => {
  let r: TestApp;
  let admin: string;
  beforeAll(async () => {
    r = await createTestApp(REDIRECT_ENV);
    admin = await r.adminToken();
  });
  afterAll(() => r.close());

  const submit = (token: string, id: string, real_name = "张三") =>
    r.api<VerifyStartResult>("POST", "/user/verify", { token, body: { real_name, id_number: id } });
  const holdOf = (uid: number) =>
    r.db.selectFrom("verifications").select(["held_until", "id_hash"]).where("uid", "=", uid).executeTakeFirstOrThrow();

  it("is not renewed by submitting another number in between (X, Y, X)", async () => {
    const attacker = await r.register();
    const x = idNumber("19750101");
    const y = idNumber("19750102");
    expect((await submit(attacker.token, x)).body.data.status).toBe(2);
    const first = await holdOf(attacker.uid);
    expect(first.held_until).not.toBeNull();
    await new Promise((res) => setTimeout(res, 20));
    expect((await submit(attacker.token, y)).body.data.status).toBe(2);
    expect((await submit(attacker.token, x)).body.data.status).toBe(2);
    expect((await holdOf(attacker.uid)).held_until).toBe(first.held_until);

    // Its 30 minutes over (the hold's start moved back, as time passing would), X again holds nothing.
    const row = await r.db
      .selectFrom("verifications")
      .select("hold_starts")
      .where("uid", "=", attacker.uid)
      .executeTakeFirstOrThrow();
    const starts = JSON.parse(row.hold_starts ?? "{}") as Record<string, string>;
    const past = new Date(Date.now() - 31 * 60_000).toISOString();
    await r.db
      .updateTable("verifications")
      .set({
        hold_starts: JSON.stringify(Object.fromEntries(Object.keys(starts).map((k) => [k, past]))),
        held_until: new Date(Date.now() - 60_000).toISOString(),
      })
      .where("uid", "=", attacker.uid)
      .execute();
    expect((await submit(attacker.token, y)).body.data.status).toBe(2);
    expect((await submit(attacker.token, x)).body.data.status).toBe(2);
    expect(await holdOf(attacker.uid)).toEqual({ held_until: null, id_hash: null });
    const owner = await r.register();
    expect((await submit(owner.token, x)).body.data.status).toBe(2);
  });

  it("records the owner refused because of a hold, so operators see the number contested", async () => {
    const attacker = await r.register();
    const owner = await r.register();
    const id = idNumber("19760101");
    expect((await submit(attacker.token, id)).body.data.status).toBe(2);
    const refused = await submit(owner.token, id, "李四");
    expect(refused.status).toBe(409);

    const queue = await r.api<Paged<VerifyQueueRow>>("GET", "/super/verify/queue", {
      token: admin,
      query: { contested: "1", size: 100 },
    });
    const row = queue.body.data.list.find((q) => q.uid === attacker.uid);
    expect(row).toMatchObject({ contested: 1 });
    expect(queue.body.data.list.map((q) => q.uid)).not.toContain(owner.uid);
    const view = await r.api<AdminVerifyView>("GET", "/super/user/verify", {
      token: admin,
      query: { uid: attacker.uid },
    });
    expect(view.body.data.contested).toEqual([
      { uid: owner.uid, status: 0, provider: "redirect", refused_at: expect.any(String) },
    ]);
    // Refused again: one entry per account, not one per attempt.
    expect((await submit(owner.token, id, "李四")).status).toBe(409);
    const again = await r.api<AdminVerifyView>("GET", "/super/user/verify", {
      token: admin,
      query: { uid: attacker.uid },
    });
    expect(again.body.data.contested.map((c) => c.uid)).toEqual([owner.uid]);
    // Nothing recorded for the refused account itself.
    expect((await r.api<VerifyState>("GET", "/user/verify", { token: owner.token })).body.data.status).toBe(0);
  });
});

describe("who reads a manual review", () => {
  it("shows the full name, number and photos to Managers only, not to support staff", async () => {
    const m = await createTestApp({ VERIFY_PROVIDER: "manual" });
    try {
      const admin = await m.adminToken();
      const c = await m.register();
      const id = idNumber();
      await postReview(m, c.token, { real_name: "周九", id_number: id }, photos());
      const s = await m.register();
      await m.api("PATCH", "/super/user/info", { token: admin, body: { uid: s.uid, role: 2 } });
      const support = await m.login(s.phone, s.password);
      const denied = await m.api("GET", "/super/user/verify/review", { token: support, query: { uid: c.uid } });
      expect([denied.status, denied.body.code]).toEqual([403, 30004]);
      expect(JSON.stringify(denied.body)).not.toContain(id);
      expect((await photo(m, support, { uid: String(c.uid), kind: "id_front" })).statusCode).toBe(403);
      // The masked request and the queue stay readable to support.
      const view = await m.api<AdminVerifyView>("GET", "/super/user/verify", { token: support, query: { uid: c.uid } });
      expect(view.body.data).toMatchObject({ status: 2, real_name: "周*" });
      const audits = await m.db
        .selectFrom("audit_logs")
        .select("action")
        .where("target", "=", `user:${c.uid}`)
        .execute();
      expect(audits).toEqual([]);
      const ok = await m.api<AdminVerifyReview>("GET", "/super/user/verify/review", {
        token: admin,
        query: { uid: c.uid },
      });
      expect(ok.body.data).toMatchObject({ real_name: "周九", id_number: id });
    } finally {
      await m.close();
    }
  });
});
