import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { idCheckDigit, UsermgrApi, VerifyApi } from "@burrow/contract";
import { expect, test } from "@playwright/test";
import { confirmPopover } from "../fixtures/antd";
import { adminToken, call, callRaw, login, registerUser } from "../fixtures/api";
import { openSignedIn } from "../fixtures/browser";
import { watchCsp } from "../fixtures/csp";
import { BASE_URL, SERVER_STATE } from "../fixtures/env";

/** A valid resident ID number, unique within the run (random sequence code). */
function idNumber(): string {
  const first17 = `110101${1970 + Math.floor(Math.random() * 40)}0615${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}`;
  return `${first17}${idCheckDigit(first17)}`;
}
const masked = (id: string) => `1101**********${id.slice(-4)}`;

test("a customer verifies: a wrong check digit is named, then the result page shows it done, masked", async ({
  page,
}) => {
  const user = await registerUser();
  const csp = await watchCsp(page);
  await openSignedIn(page, user.token, "/account/verify");
  await expect(page.getByRole("heading", { name: "实名认证" })).toBeVisible();

  const id = idNumber();
  const wrong = `${id.slice(0, 17)}${id[17] === "0" ? "1" : "0"}`;
  await page.getByLabel("真实姓名").fill("张三");
  await page.getByLabel("身份证号码").fill(wrong);
  await page.getByRole("button", { name: "提交认证" }).click();
  await expect(page.getByText("身份证号码校验位不正确")).toBeVisible();

  await page.getByLabel("身份证号码").fill(id);
  await page.getByRole("button", { name: "提交认证" }).click();
  await expect(page).toHaveURL(/\/account\/verify\/done$/);
  await expect(page.getByText("实名认证已完成")).toBeVisible();
  await expect(page.getByText(masked(id))).toBeVisible();
  await expect(page.locator("body")).not.toContainText(id);

  // Back on the form page: the state card, no form.
  await page.getByRole("link", { name: "返回实名认证" }).click();
  await expect(page.getByText("已完成")).toBeVisible();
  await expect(page.getByRole("button", { name: "提交认证" })).toHaveCount(0);
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});

test("a rejected verification shows its reason and can be submitted again", async ({ page }) => {
  const user = await registerUser();
  await openSignedIn(page, user.token, "/account/verify");
  await page.getByLabel("真实姓名").fill("拒绝测试");
  await page.getByLabel("身份证号码").fill(idNumber());
  await page.getByRole("button", { name: "提交认证" }).click();
  await expect(page).toHaveURL(/\/account\/verify\/rejected$/);
  await expect(page.getByText("实名认证未通过")).toBeVisible();
  await expect(page.getByText(/原因：.*不一致/)).toBeVisible();
  await page.getByRole("link", { name: "重新提交" }).click();
  await expect(page.getByRole("button", { name: "提交认证" })).toBeVisible();
});

test("an operator sees a customer's verification on the user detail and resets it", async ({ page }) => {
  const user = await registerUser();
  const id = idNumber();
  const done = await call(VerifyApi.postUserVerify, {
    token: user.token,
    body: { real_name: "王小明", id_number: id },
  });
  expect(done.status).toBe(1);

  const csp = await watchCsp(page);
  await openSignedIn(page, await adminToken(), `/admin/usermgr/list/${user.uid}`);
  const card = page.locator(".ant-card").filter({ has: page.getByText("实名认证", { exact: true }) });
  await expect(card.getByText("已完成")).toBeVisible();
  await expect(card.getByText("王**")).toBeVisible();
  await expect(card.getByText(masked(id))).toBeVisible();
  await expect(page.locator("body")).not.toContainText(id);

  await card.getByRole("button", { name: "重置" }).click();
  await confirmPopover(page, "重置");
  await expect(page.getByText("实名认证已更新")).toBeVisible();
  await expect(card.getByText("未提交")).toBeVisible();
  expect((await call(VerifyApi.getUserVerify, { token: user.token })).status).toBe(0);
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});

test("while the operator requires verification, the tunnel form points an unverified customer to /account/verify", async ({
  page,
}) => {
  const admin = await adminToken();
  await call(VerifyApi.patchSuperVerifySetting, { token: admin, body: { required_for_tunnels: true } });
  try {
    const user = await registerUser();
    await openSignedIn(page, user.token, "/tun/list/add");
    await expect(page.getByText("请先完成实名认证")).toBeVisible();
    await page.getByRole("link", { name: "前往实名认证" }).click();
    await expect(page).toHaveURL(/\/account\/verify$/);
    await expect(page.getByText("完成实名认证后才能创建隧道。")).toBeVisible();
  } finally {
    await call(VerifyApi.patchSuperVerifySetting, { token: admin, body: { required_for_tunnels: false } });
  }
});

/** A real 32×20 PNG (the review page shows it). */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAACAAAAAUCAIAAABj86gYAAAAIElEQVR42mM4YWNDU8QwasGoBaMWjFowasGoBaMWEIMAV0sgLideEVAAAAAASUVORK5CYII=",
  "base64",
);

/** A camera-sized PNG (2400×1800, a gradient with noise: over 5 MB, more than the server takes). */
function bigPng(): Buffer {
  const w = 2400;
  const h = 1800;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    for (let x = 0; x < w; x++) {
      const i = row + 1 + x * 3;
      const n = Math.floor(Math.random() * 24);
      raw[i] = ((x * 255) / w + n) & 255;
      raw[i + 1] = ((y * 255) / h + n) & 255;
      raw[i + 2] = 128 + n;
    }
  }
  const table = Array.from({ length: 256 }, (_, k) => {
    let c = k;
    for (let j = 0; j < 8; j++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const byte of b) c = table[(c ^ byte) & 255] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 1 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The server's encrypted review photos of a user (DATA_DIR/uploads/verify/<uid>-….bin). */
function storedPhotos(uid: number): string[] {
  const { dataDir } = JSON.parse(readFileSync(SERVER_STATE, "utf8")) as { dataDir: string };
  const dir = path.join(dataDir, "uploads", "verify");
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`${uid}-`)) : [];
}

test("a customer submits ID-card photos for review; an operator sees them with the full name and number, approves, and the photos are gone", async ({
  page,
  browser,
}) => {
  const user = await registerUser();
  const id = idNumber();
  const csp = await watchCsp(page);
  await openSignedIn(page, user.token, "/account/verify");
  await page.getByLabel("真实姓名").fill("李雷");
  await page.getByLabel("身份证号码").fill(id);
  for (const label of ["身份证人像面", "身份证国徽面"])
    await page.getByLabel(label).setInputFiles({ name: `${label}.png`, mimeType: "image/png", buffer: PNG });
  // A phone camera's photo is shrunk in the browser before it is sent (the proxy caps a request at 4 MB).
  const camera = bigPng();
  expect(camera.length).toBeGreaterThan(5 * 1024 * 1024);
  await page.getByLabel("手持身份证照片").setInputFiles({ name: "hand.png", mimeType: "image/png", buffer: camera });
  await page.getByRole("button", { name: "提交认证" }).click();
  await expect(page).toHaveURL(/\/account\/verify\/processing$/);
  await expect(page.locator("body")).not.toContainText(id);
  expect(storedPhotos(user.uid)).toHaveLength(3);
  // Nothing lets the customer fetch them back.
  const own = await callRaw(VerifyApi.getSuperUserVerifyPhoto, {
    token: user.token,
    query: { uid: user.uid, kind: "id_front" },
  });
  expect(own.status).toBe(403);
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);

  // The operator finds it in the review queue and opens the review.
  const admin = await browser.newPage();
  const adminCsp = await watchCsp(admin);
  await openSignedIn(admin, await adminToken(), "/admin/verify/list");
  await expect(admin.getByRole("heading", { name: "实名审核" })).toBeVisible();
  const row = admin.getByRole("row").filter({ has: admin.getByRole("link", { name: String(user.uid), exact: true }) });
  await expect(row.getByText("待审核")).toBeVisible();
  await row.getByRole("link", { name: "审核" }).click();
  await expect(admin).toHaveURL(new RegExp(`/admin/verify/list/${user.uid}$`));

  // Full name and number, and the three photos, decrypted for the reviewer.
  const evidence = admin.locator(".ant-card").filter({ has: admin.getByText("证件资料", { exact: true }) });
  await expect(evidence.getByText("李雷", { exact: true })).toBeVisible();
  await expect(evidence.getByText(id, { exact: true })).toBeVisible();
  for (const [label, width] of [
    ["身份证人像面", 32],
    ["身份证国徽面", 32],
    ["手持身份证照片", 1600],
  ] as const) {
    const img = evidence.getByRole("img", { name: label });
    await expect(img).toBeVisible();
    await expect(img).toHaveAttribute("src", /^blob:/);
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(width);
  }
  const review = await call(VerifyApi.getSuperUserVerifyReview, {
    token: await adminToken(),
    query: { uid: user.uid },
  });
  const hand = review.photos.find((p) => p.kind === "id_hand");
  expect(hand?.mime).toBe("image/jpeg");
  expect(hand?.size).toBeLessThanOrEqual(1024 * 1024);

  const card = admin.locator(".ant-card").filter({ has: admin.getByText("实名认证", { exact: true }) });
  await card.getByRole("button", { name: "审核通过" }).click();
  await confirmPopover(admin, "通过");
  await expect(admin.getByText("实名认证已更新")).toBeVisible();
  await expect(card.getByText("已完成")).toBeVisible();
  await expect(admin.getByText("没有待审核的证件照片")).toBeVisible();
  await expect(admin.locator("body")).not.toContainText(id);

  // Gone: the files, and the photo for anyone who asks.
  expect(storedPhotos(user.uid)).toEqual([]);
  const after = await callRaw(VerifyApi.getSuperUserVerifyPhoto, {
    token: await adminToken(),
    query: { uid: user.uid, kind: "id_front" },
  });
  expect(after.status).toBe(404);
  expect((await call(VerifyApi.getUserVerify, { token: user.token })).status).toBe(1);
  expect(await adminCsp.violations()).toEqual([]);
  expect(adminCsp.pageErrors).toEqual([]);
  await admin.close();
});

/** POST /user/verify/review through the API (the form itself is covered above). */
async function submitReviewApi(token: string, realName: string, id: string): Promise<void> {
  const form = new FormData();
  form.append("real_name", realName);
  form.append("id_number", id);
  for (const kind of ["id_front", "id_back"]) form.append(kind, new Blob([new Uint8Array(PNG)]), `${kind}.png`);
  const res = await fetch(`${BASE_URL}/api/user/verify/review`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(((await res.json()) as { code: unknown }).code).toBe("SUCCESS");
}

test("an approval applies to the submission the Manager reviewed: a resubmission meanwhile is refused and shown; support sees no ID data", async ({
  page,
  browser,
}) => {
  const user = await registerUser();
  const first = idNumber();
  const second = idNumber();
  await submitReviewApi(user.token, "赵六", first);

  // Support staff: the masked request, no full name, number or photos, no decision.
  const s = await registerUser();
  await call(UsermgrApi.patchSuperUserInfo, { token: await adminToken(), body: { uid: s.uid, role: 2 } });
  const supportToken = await login(s.phone, s.password);
  const support = await browser.newPage();
  const supportCsp = await watchCsp(support);
  await openSignedIn(support, supportToken, `/admin/verify/list/${user.uid}`);
  await expect(support.getByTestId("verify-evidence-managers-only")).toBeVisible();
  await expect(support.getByText("赵*", { exact: true })).toBeVisible();
  await expect(support.locator("body")).not.toContainText("赵六");
  await expect(support.locator("body")).not.toContainText(first);
  await expect(support.getByRole("button", { name: "审核通过" })).toHaveCount(0);
  expect(await supportCsp.violations()).toEqual([]);
  expect(supportCsp.pageErrors).toEqual([]);
  await support.close();

  // The Manager opens the review of 赵六 …
  const csp = await watchCsp(page);
  await openSignedIn(page, await adminToken(), `/admin/verify/list/${user.uid}`);
  const evidence = page.locator(".ant-card").filter({ has: page.getByText("证件资料", { exact: true }) });
  await expect(evidence.getByText("赵六", { exact: true })).toBeVisible();
  await expect(evidence.getByRole("img", { name: "身份证人像面" })).toHaveAttribute("src", /^blob:/);
  // … the customer resubmits someone else's name and number …
  await submitReviewApi(user.token, "钱七", second);
  // … and the approval of what the Manager saw is refused, and the new submission is loaded to review.
  const card = page.locator(".ant-card").filter({ has: page.getByText("实名认证", { exact: true }) });
  await card.getByRole("button", { name: "审核通过" }).click();
  await confirmPopover(page, "通过");
  await expect(page.getByText("资料已更新，请重新审核")).toBeVisible();
  await expect(evidence.getByText("钱七", { exact: true })).toBeVisible();
  await expect(evidence.getByText(second, { exact: true })).toBeVisible();
  expect((await call(VerifyApi.getUserVerify, { token: user.token })).status).toBe(2);

  // Reviewed again, the approval goes through for 钱七.
  await card.getByRole("button", { name: "审核通过" }).click();
  await confirmPopover(page, "通过");
  await expect(page.getByText("实名认证已更新")).toBeVisible();
  await expect(card.getByText("已完成")).toBeVisible();
  const state = await call(VerifyApi.getUserVerify, { token: user.token });
  expect([state.status, state.real_name]).toEqual([1, "钱*"]);
  expect(await csp.violations()).toEqual([]);
  expect(csp.pageErrors).toEqual([]);
});
