import type { AdminVerifyView, Paged, VerifyQueueRow, VerifyStartResult, VerifyState } from "@burrow/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import {
  approveReview,
  idImage,
  idNumbers,
  manualReviewApp,
  postReview,
  REDIRECT_ENV,
  redirectNotify,
  redirectRequestId,
} from "../../../test/verify-fixtures";

/*
 * Issue 30 §4: whoever knows a name and an ID number could submit them and never finish, and the
 * number stayed held ("processing") for ever: its owner got 409 on every attempt. Now a number is
 * held against other accounts once verified, or for 30 minutes while a redirect provider's request
 * is processing; a manual review holds nothing, and operators see the numbers several accounts claim.
 */

const idNumber = idNumbers(500);

describe("a redirect provider's unfinished request", () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp(REDIRECT_ENV);
  });
  afterAll(() => r.close());

  const submit = (token: string, id: string, real_name = "张三") =>
    r.api<VerifyStartResult>("POST", "/user/verify", { token, body: { real_name, id_number: id } });
  const requestIdOf = redirectRequestId;
  const notify = (request_id: string, status: string) => redirectNotify(r, request_id, status);
  /** Moves a request's hold into the past, as 30 minutes passing would. */
  const expireHold = (uid: number) =>
    r.db
      .updateTable("verifications")
      .set({ held_until: new Date(Date.now() - 1000).toISOString() })
      .where("uid", "=", uid)
      .execute();

  it("holds the number for 30 minutes only; then the owner verifies, and from then on it is the owner's", async () => {
    const attacker = await r.register();
    const owner = await r.register();
    const id = idNumber("19700101");

    const squat = await submit(attacker.token, id);
    expect(squat.body.data.status).toBe(2);
    const row = await r.db
      .selectFrom("verifications")
      .select(["held_until", "updated_at"])
      .where("uid", "=", attacker.uid)
      .executeTakeFirstOrThrow();
    const holdMs = Date.parse(row.held_until ?? "") - Date.parse(row.updated_at);
    expect(holdMs).toBe(30 * 60_000);

    // Within the hold: refused, told how long to wait.
    const early = await submit(owner.token, id);
    expect(early.status).toBe(409);
    expect(early.body.msg).toMatch(/\d+ 分钟后再试/);
    // Submitting the same number again does not extend the hold.
    await submit(attacker.token, id);
    const again = await r.db
      .selectFrom("verifications")
      .select("held_until")
      .where("uid", "=", attacker.uid)
      .executeTakeFirstOrThrow();
    expect(again.held_until).toBe(row.held_until);

    // The attacker never finishes; 30 minutes later the owner's submission goes through.
    await expireHold(attacker.uid);
    const mine = await submit(owner.token, id);
    expect(mine.body.code).toBe("SUCCESS");
    expect(mine.body.data.status).toBe(2);
    expect((await notify(requestIdOf(mine), "done")).body).toBe("success");
    expect((await r.api<VerifyState>("GET", "/user/verify", { token: owner.token })).body.data.status).toBe(1);

    // Verified: the number is held against everyone else, for good.
    await expireHold(owner.uid);
    const late = await submit(attacker.token, id);
    expect(late.status).toBe(409);
    expect(late.body.msg).toContain("已用于其他账号");
    const third = await r.register();
    expect((await submit(third.token, id)).status).toBe(409);
  });

  it("takes no manual review (photos) while a provider verifies", async () => {
    const u = await r.register();
    const res = await r.app.inject({
      method: "POST",
      url: "/api/user/verify/review",
      headers: { authorization: `Bearer ${u.token}`, "content-type": "multipart/form-data; boundary=x" },
      payload: "--x--\r\n",
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().msg).toContain("不支持人工审核");
  });

  it("records a late 'done' for a number another account verified meanwhile as rejected", async () => {
    const first = await r.register();
    const second = await r.register();
    const id = idNumber("19710101");
    const a = await submit(first.token, id);
    await expireHold(first.uid);
    const b = await submit(second.token, id);
    expect((await notify(requestIdOf(b), "done")).body).toBe("success");
    expect((await notify(requestIdOf(a), "done")).body).toBe("success");
    const s = await r.api<VerifyState>("GET", "/user/verify", { token: first.token });
    expect(s.body.data).toMatchObject({ status: 3, reason: expect.stringContaining("已用于其他账号") });
    expect((await r.api<VerifyState>("GET", "/user/verify", { token: second.token })).body.data.status).toBe(1);
  });

  it("a verification wins over another account's unfinished hold", async () => {
    const first = await r.register();
    const second = await r.register();
    const id = idNumber("19720101");
    const a = await submit(first.token, id);
    await expireHold(first.uid);
    const b = await submit(second.token, id);
    // The first request's provider answers "done" while the second one holds the number.
    expect((await notify(requestIdOf(a), "done")).body).toBe("success");
    expect((await r.api<VerifyState>("GET", "/user/verify", { token: first.token })).body.data.status).toBe(1);
    expect((await notify(requestIdOf(b), "done")).body).toBe("success");
    const s = await r.api<VerifyState>("GET", "/user/verify", { token: second.token });
    expect(s.body.data).toMatchObject({ status: 3, reason: expect.stringContaining("已用于其他账号") });
  });
});

describe("a manual review's unfinished submission", () => {
  let m: TestApp;
  let admin: string;
  beforeAll(async () => ({ m, admin } = await manualReviewApp()));
  afterAll(() => m.close());

  const submit = (token: string, id: string, real_name = "张三") =>
    postReview(m, token, { real_name, id_number: id }, { id_front: idImage("png"), id_back: idImage("png") });
  const queue = (query: Record<string, unknown> = {}) =>
    m.api<Paged<VerifyQueueRow>>("GET", "/super/verify/queue", { token: admin, query: { size: 100, ...query } });

  it("does not block the owner; operators see the number contested; the approval makes it the owner's", async () => {
    const attacker = await m.register();
    const owner = await m.register();
    const bystander = await m.register();
    const id = idNumber("19800808");
    expect((await submit(attacker.token, id)).body.data.status).toBe(2);
    expect((await submit(bystander.token, idNumber("19800809"))).body.data.status).toBe(2);

    const mine = await submit(owner.token, id);
    expect(mine.body.code).toBe("SUCCESS");
    expect(mine.body.data.status).toBe(2);

    // The review queue flags both claims of the number, and only those.
    const all = await queue();
    const byUid = new Map(all.body.data.list.map((row) => [row.uid, row]));
    expect(byUid.get(attacker.uid)).toMatchObject({ contested: 1, evidence: true, provider: "manual" });
    expect(byUid.get(owner.uid)).toMatchObject({ contested: 1, evidence: true });
    expect(byUid.get(bystander.uid)).toMatchObject({ contested: 0 });
    const contested = await queue({ contested: "1" });
    const uids = contested.body.data.list.map((row) => row.uid);
    expect(uids).toEqual(expect.arrayContaining([attacker.uid, owner.uid]));
    expect(uids).not.toContain(bystander.uid);
    expect(contested.body.data.total).toBe(contested.body.data.list.length);
    const view = await m.api<AdminVerifyView>("GET", "/super/user/verify", { token: admin, query: { uid: owner.uid } });
    expect(view.body.data.contested).toEqual([{ uid: attacker.uid, status: 2, provider: "manual", refused_at: null }]);

    // The operator approves the owner; the number is now held: the attacker's request cannot be
    // approved (the operator is told whose it is) and nobody else may submit it.
    const ok = await approveReview(m, admin, owner.uid);
    expect(ok.body.data.status).toBe(1);
    const wrong = await approveReview(m, admin, attacker.uid);
    expect(wrong.status).toBe(409);
    expect(wrong.body.msg).toContain(`UID ${owner.uid}`);
    const attackerView = await m.api<AdminVerifyView>("GET", "/super/user/verify", {
      token: admin,
      query: { uid: attacker.uid },
    });
    expect(attackerView.body.data).toMatchObject({ status: 2, contested: [{ uid: owner.uid, status: 1 }] });
    const third = await m.register();
    const refused = await submit(third.token, id);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain("已用于其他账号");
    expect((await m.api<VerifyState>("GET", "/user/verify", { token: third.token })).body.data.status).toBe(0);
  });

  it("two approvals of one number at once: exactly one wins", async () => {
    const users = await Promise.all([m.register(), m.register(), m.register()]);
    const id = idNumber("19900101");
    for (const u of users) expect((await submit(u.token, id)).body.data.status).toBe(2);
    const results = await Promise.all(users.map((u) => approveReview(m, admin, u.uid)));
    expect(results.filter((x) => x.body.code === "SUCCESS")).toHaveLength(1);
    for (const x of results.filter((y) => y.body.code !== "SUCCESS")) expect(x.status).toBe(409);
    const done = await m.db
      .selectFrom("verifications")
      .select("uid")
      .where(
        "uid",
        "in",
        users.map((u) => u.uid),
      )
      .where("status", "=", 1)
      .execute();
    expect(done).toHaveLength(1);
  });
});
