import fs from "node:fs";
import path from "node:path";
import {
  type AdminVerifyReview,
  type AdminVerifyView,
  VERIFY_PHOTO_MAX_BYTES,
  type VerifyStartResult,
  type VerifyState,
} from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import {
  type Files,
  idNumbers,
  idImage as image,
  IMAGE_MARK as MARK,
  manualReviewApp,
  postReview as review,
} from "../../../test/verify-fixtures";
import { evidenceKey } from "./evidence";
import { expireEvidence } from "./verify.service";

/*
 * Issue 30 §5: a manual review is decided on photos of the ID card and the full name and number,
 * kept encrypted, shown to staff only (each view audited) and deleted at the decision or when
 * nobody decided in time.
 */

const idNumber = idNumbers(300);

const photo = (app: TestApp, token: string, uid: number, kind: string) =>
  app.app.inject({
    method: "GET",
    url: "/api/super/user/verify/photo",
    query: { uid: String(uid), kind },
    headers: { authorization: `Bearer ${token}` },
  });

/** The files a request's evidence names (none once it is gone). */
async function evidenceFiles(app: TestApp, uid: number): Promise<string[]> {
  const row = await app.db
    .selectFrom("verifications")
    .select("evidence_photos")
    .where("uid", "=", uid)
    .executeTakeFirst();
  return row?.evidence_photos ? (JSON.parse(row.evidence_photos) as { file: string }[]).map((p) => p.file) : [];
}

const dirOf = (app: TestApp) => path.join(app.ctx.config.DATA_DIR, "uploads", "verify");
const stored = (app: TestApp) => (fs.existsSync(dirOf(app)) ? fs.readdirSync(dirOf(app)) : []);

let m: TestApp;
let admin: string;
beforeAll(async () => ({ m, admin } = await manualReviewApp()));
afterAll(() => m.close());

const fullSet = () => ({ id_front: image("png"), id_back: image("jpg"), id_hand: image("webp") });

describe("manual review collects photos (issue 30 §5)", () => {
  it("refuses a blind submission: in manual mode name and number alone are not taken", async () => {
    const u = await m.register();
    const r = await m.api<VerifyStartResult>("POST", "/user/verify", {
      token: u.token,
      body: { real_name: "张三", id_number: idNumber() },
    });
    expect(r.status).toBe(403);
    expect(r.body.msg).toContain("身份证照片");
    const state = await m.api<VerifyState>("GET", "/user/verify", { token: u.token });
    expect(state.body.data).toMatchObject({ status: 0, mode: "manual" });
  });

  it.each([
    ["no back photo", {}, { id_front: image("png") }, "id_back"],
    ["a text file named .png", {}, { id_front: Buffer.from("hello, not an image"), id_back: image("png") }, "id_front"],
    ["a gif", {}, { id_front: image("png"), id_back: image("gif") }, "id_back"],
    [
      "a photo over 5 MB",
      {},
      { id_front: image("png", VERIFY_PHOTO_MAX_BYTES + 1), id_back: image("png") },
      "id_front",
    ],
    ["an unknown file field", {}, { id_front: image("png"), id_back: image("png"), selfie: image("png") }, "selfie"],
    ["a bad ID number", { id_number: "110101199003071230" }, fullSet(), "id_number"],
    ["a bad name", { real_name: "Zhang San" }, fullSet(), "real_name"],
  ])("refuses %s (400 naming %s), storing nothing", async (_what, fields, files, field) => {
    const u = await m.register();
    const before = stored(m);
    const r = await review(m, u.token, { real_name: "张三", id_number: idNumber(), ...fields }, files as Files);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(10000);
    expect(r.body.msg).toContain(field);
    expect((await m.api<VerifyState>("GET", "/user/verify", { token: u.token })).body.data.status).toBe(0);
    expect(stored(m)).toEqual(before);
    expect(await evidenceFiles(m, u.uid)).toEqual([]);
  });

  it.each([
    ["a photo given twice", ["id_front", "id_front", "id_back"], "id_front"],
    ["a fourth photo", ["id_front", "id_back", "id_hand", "id_hand"], "id_hand"],
  ])("refuses %s, storing nothing", async (_what, kinds, field) => {
    const u = await m.register();
    const fd = new FormData();
    fd.append("real_name", "张三");
    fd.append("id_number", idNumber());
    for (const k of kinds) fd.append(k, new Blob([new Uint8Array(image("png"))]), "a.png");
    const req = new Request("http://localhost/", { method: "POST", body: fd });
    const before = stored(m);
    const res = await m.app.inject({
      method: "POST",
      url: "/api/user/verify/review",
      headers: { authorization: `Bearer ${u.token}`, "content-type": req.headers.get("content-type") ?? "" },
      payload: Buffer.from(await req.arrayBuffer()),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toContain(field);
    expect(stored(m)).toEqual(before);
    expect((await m.api<VerifyState>("GET", "/user/verify", { token: u.token })).body.data.status).toBe(0);
  });

  it("accepts three photos of nearly 5 MB each", async () => {
    const u = await m.register();
    const big = VERIFY_PHOTO_MAX_BYTES - 1024;
    const r = await review(
      m,
      u.token,
      { real_name: "张三", id_number: idNumber() },
      { id_front: image("jpg", big), id_back: image("jpg", big), id_hand: image("png", big) },
    );
    expect(r.body.code).toBe("SUCCESS");
    expect(await evidenceFiles(m, u.uid)).toHaveLength(3);
  });

  it("stores the photos and the identity encrypted, shows them to staff only, audits each view and deletes them at the approval", async () => {
    const u = await m.register();
    const id = idNumber("19850505");
    const files = fullSet();
    const before = stored(m).length;
    const r = await review(m, u.token, { real_name: "欧阳娜娜", id_number: id }, files);
    expect(r.body.code).toBe("SUCCESS");
    expect(r.body.data).toMatchObject({ status: 2, real_name: "欧***", redirect_url: null });

    // At rest: three new files, none holding the image's bytes, its magic or the number; 0600.
    const names = stored(m);
    expect(names.length).toBe(before + 3);
    const evidence = await m.db
      .selectFrom("verifications")
      .selectAll()
      .where("uid", "=", u.uid)
      .executeTakeFirstOrThrow();
    const mine = await evidenceFiles(m, u.uid);
    expect(mine).toHaveLength(3);
    for (const f of mine) {
      const bytes = fs.readFileSync(path.join(dirOf(m), f));
      expect(bytes.includes(MARK)).toBe(false);
      expect(bytes.subarray(0, 8).equals(files.id_front.subarray(0, 8))).toBe(false);
      expect(bytes.includes(id)).toBe(false);
      if (process.platform !== "win32") expect(fs.statSync(path.join(dirOf(m), f)).mode & 0o777).toBe(0o600);
    }
    // Nor is the identity readable in the row: only masked forms, a hash and sealed values.
    expect(JSON.stringify(evidence)).not.toContain(id.slice(4, 14));
    expect(JSON.stringify(evidence)).not.toContain("娜娜");
    expect(evidence.evidence_key).toMatch(/^v1:/);

    // The customer cannot fetch them back, neither the photos nor the full data; nor can another.
    const other = await m.register();
    for (const token of [u.token, other.token]) {
      expect((await photo(m, token, u.uid, "id_front")).statusCode).toBe(403);
      const rev = await m.api("GET", "/super/user/verify/review", { token, query: { uid: u.uid } });
      expect(rev.status).toBe(403);
    }
    const mineState = await m.api<VerifyState>("GET", "/user/verify", { token: u.token });
    expect(JSON.stringify(mineState.body)).not.toContain(id);

    // Support staff see the masked request only: the full name, number and photos are for the
    // Managers who decide (each view audited).
    const s = await m.register();
    await m.api("PATCH", "/super/user/info", { token: admin, body: { uid: s.uid, role: 2 } });
    const staff = await m.login(s.phone, s.password);
    const view = await m.api<AdminVerifyView>("GET", "/super/user/verify", { token: staff, query: { uid: u.uid } });
    expect(view.body.data).toMatchObject({ status: 2, real_name: "欧***", provider: "manual" });
    expect(view.body.data.evidence?.photos).toEqual(["id_front", "id_back", "id_hand"]);
    expect(JSON.stringify(view.body.data)).not.toContain(id);
    const denied = await m.api("GET", "/super/user/verify/review", { token: staff, query: { uid: u.uid } });
    expect([denied.status, denied.body.code]).toEqual([403, 30004]);
    expect(JSON.stringify(denied.body)).not.toContain(id);
    const deniedPhoto = await photo(m, staff, u.uid, "id_front");
    expect(deniedPhoto.statusCode).toBe(403);
    expect(deniedPhoto.rawPayload.includes(MARK)).toBe(false);
    const managerUid = (await m.api<{ uid: number }>("GET", "/user/userInfo", { token: admin })).body.data.uid;
    const full = await m.api<AdminVerifyReview>("GET", "/super/user/verify/review", {
      token: admin,
      query: { uid: u.uid },
    });
    expect(full.body.data).toMatchObject({ uid: u.uid, real_name: "欧阳娜娜", id_number: id });
    expect(full.body.data.photos.map((p) => [p.kind, p.mime])).toEqual([
      ["id_front", "image/png"],
      ["id_back", "image/jpeg"],
      ["id_hand", "image/webp"],
    ]);
    for (const [kind, data] of Object.entries(files)) {
      const res = await photo(m, admin, u.uid, kind);
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toContain("no-store");
      expect(res.rawPayload.equals(data)).toBe(true);
    }
    const audits = await m.db
      .selectFrom("audit_logs")
      .select(["operator_uid", "action", "detail"])
      .where("target", "=", `user:${u.uid}`)
      .orderBy("id")
      .execute();
    expect(audits.map((a) => `${a.operator_uid} ${a.action} ${a.detail}`)).toEqual([
      `${managerUid} verify.review {}`,
      `${managerUid} verify.photo {"kind":"id_front"}`,
      `${managerUid} verify.photo {"kind":"id_back"}`,
      `${managerUid} verify.photo {"kind":"id_hand"}`,
    ]);

    // The approval deletes the files, the key and the identity.
    const ok = await m.api<AdminVerifyView>("POST", "/super/user/verify", {
      token: admin,
      body: { uid: u.uid, action: "approve", version: full.body.data.version },
    });
    expect(ok.body.data).toMatchObject({ status: 1, evidence: null });
    for (const f of mine) expect(fs.existsSync(path.join(dirOf(m), f))).toBe(false);
    const after = await m.db.selectFrom("verifications").selectAll().where("uid", "=", u.uid).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ evidence_key: null, evidence_identity: null, evidence_photos: null });
    expect((await photo(m, admin, u.uid, "id_front")).statusCode).toBe(404);
    expect((await m.api("GET", "/super/user/verify/review", { token: admin, query: { uid: u.uid } })).status).toBe(404);
  });

  it("deletes them at a rejection and at a reset too, and when the customer submits again", async () => {
    const decide = async (action: "reject" | "reset") => {
      const u = await m.register();
      await review(m, u.token, { real_name: "张三", id_number: idNumber() }, fullSet());
      const files = await evidenceFiles(m, u.uid);
      expect(files).toHaveLength(3);
      // A second submission replaces the first one's photos.
      await review(m, u.token, { real_name: "张三", id_number: idNumber() }, fullSet());
      for (const f of files) expect(fs.existsSync(path.join(dirOf(m), f))).toBe(false);
      const second = await evidenceFiles(m, u.uid);
      expect(second).toHaveLength(3);
      const r = await m.api("POST", "/super/user/verify", {
        token: admin,
        body: { uid: u.uid, action, ...(action === "reject" && { reason: "照片不清晰" }) },
      });
      expect(r.body.code).toBe("SUCCESS");
      for (const f of second) expect(fs.existsSync(path.join(dirOf(m), f))).toBe(false);
      expect((await photo(m, admin, u.uid, "id_back")).statusCode).toBe(404);
    };
    await decide("reject");
    await decide("reset");
  });

  it("rejects a review nobody decided in 14 days and deletes its photos; leaves younger ones", async () => {
    const old = await m.register();
    const young = await m.register();
    await review(m, old.token, { real_name: "张三", id_number: idNumber() }, fullSet());
    await review(m, young.token, { real_name: "李四", id_number: idNumber() }, fullSet());
    const oldFiles = await evidenceFiles(m, old.uid);
    const youngFiles = await evidenceFiles(m, young.uid);
    // The old one's 14 days are up (its end moved to yesterday, as time passing would); the young one's are not.
    await m.db
      .updateTable("verifications")
      .set({ evidence_expires_at: new Date(Date.now() - 86400_000).toISOString() })
      .where("uid", "=", old.uid)
      .execute();
    expect(await expireEvidence(m.ctx, new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
    const s = await m.api<VerifyState>("GET", "/user/verify", { token: old.token });
    expect(s.body.data).toMatchObject({ status: 3, reason: expect.stringContaining("重新提交") });
    for (const f of oldFiles) expect(fs.existsSync(path.join(dirOf(m), f))).toBe(false);
    for (const f of youngFiles) expect(fs.existsSync(path.join(dirOf(m), f))).toBe(true);
    expect((await m.api<VerifyState>("GET", "/user/verify", { token: young.token })).body.data.status).toBe(2);
    // The customer may submit again at once.
    expect((await review(m, old.token, { real_name: "张三", id_number: idNumber() }, fullSet())).body.code).toBe(
      "SUCCESS",
    );
  });

  it("removes files no row names any more (a crash between the write and the commit) once they are an hour old", async () => {
    fs.mkdirSync(dirOf(m), { recursive: true });
    const orphan = path.join(dirOf(m), `9999-${"a".repeat(24)}.bin`);
    const fresh = path.join(dirOf(m), `9999-${"b".repeat(24)}.bin`);
    fs.writeFileSync(orphan, "x");
    fs.writeFileSync(fresh, "x");
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(orphan, hourAgo, hourAgo);
    await expireEvidence(m.ctx);
    expect(fs.existsSync(orphan)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
  });

  it("in production needs VERIFY_ID_SECRET for the evidence key (one kept in the database would travel with it)", async () => {
    const prod = { config: { NODE_ENV: "production" }, db: m.db } as unknown as typeof m.ctx;
    await expect(evidenceKey(prod)).rejects.toThrow(/VERIFY_ID_SECRET/);
    const keyed = {
      config: { NODE_ENV: "production", VERIFY_ID_SECRET: "s".repeat(32) },
      db: m.db,
    } as unknown as typeof m.ctx;
    expect((await evidenceKey(keyed)).length).toBe(32);
  });
});

describe("the sandbox takes a review with photos as the manual mode does", () => {
  it("keeps it processing for an operator, whatever the name", async () => {
    const s = await createTestApp();
    try {
      const u = await s.register();
      const r = await review(s, u.token, { real_name: "张三", id_number: idNumber() }, fullSet());
      expect(r.body.data).toMatchObject({ status: 2, mode: "sandbox" });
      const view = await s.api<AdminVerifyView>("GET", "/super/user/verify", {
        token: await s.adminToken(),
        query: { uid: u.uid },
      });
      expect(view.body.data).toMatchObject({
        provider: "manual",
        evidence: { photos: ["id_front", "id_back", "id_hand"] },
      });
    } finally {
      await s.close();
    }
  });
});
