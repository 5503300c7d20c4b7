import { type AdminVerifyReview, type AdminVerifyView, idCheckDigit, type VerifyStartResult } from "@burrow/contract";
import { RESULT_FIELDS, verifySign } from "../src/modules/verify/provider";
import { createTestApp, type TestApp } from "./harness";

/** Verification through a redirect provider and through a manual review, as its tests drive them. */

export const REDIRECT_KEY = "provider-test-key-0123456789";
/** createTestApp's environment for a redirect provider. */
export const REDIRECT_ENV = {
  VERIFY_PROVIDER: "redirect",
  VERIFY_URL: "https://idv.example.com/certify",
  VERIFY_MERCHANT_ID: "m100",
  VERIFY_KEY: REDIRECT_KEY,
  PUBLIC_URL: "https://console.example.com",
};

/** The provider request id of a submission's redirect. */
export const redirectRequestId = (res: { body: { data: VerifyStartResult } }): string =>
  new URL(res.body.data.redirect_url ?? "").searchParams.get("request_id") ?? "";

/** The provider's signed result, sent to POST /api/verify/notify as the provider would. */
export function redirectNotify(app: TestApp, request_id: string, status: string) {
  const p: Record<string, string> = {
    merchant_id: REDIRECT_ENV.VERIFY_MERCHANT_ID,
    request_id,
    status,
    reason: "",
    timestamp: String(Math.floor(Date.now() / 1000)),
  };
  return app.app.inject({
    method: "POST",
    url: "/api/verify/notify",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ ...p, sign: verifySign(RESULT_FIELDS, p, REDIRECT_KEY) }).toString(),
  });
}

export const IMAGE_MARK = "PLAINTEXT-PHOTO-MARKER";
/** Image bytes as a camera would give them: the type's magic, a recognisable marker, filler. */
export function idImage(type: "png" | "jpg" | "webp" | "gif", size = 4096): Buffer {
  const magic = {
    png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    jpg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    webp: Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBP")]),
    gif: Buffer.from("GIF89a"),
  }[type];
  const body = Buffer.alloc(Math.max(0, size - magic.length - IMAGE_MARK.length), 0x41);
  return Buffer.concat([magic, Buffer.from(IMAGE_MARK), body]);
}

export type Files = Record<string, Buffer>;

/** A multipart body as a browser's FormData sends it. */
export async function multipart(fields: Record<string, string>, files: Files) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const [k, data] of Object.entries(files)) fd.append(k, new Blob([new Uint8Array(data)]), `${k}.png`);
  const req = new Request("http://localhost/", { method: "POST", body: fd });
  return { payload: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get("content-type") ?? "" };
}

/** An app whose verification is a manual review, and a Manager's token to decide it. */
export async function manualReviewApp(): Promise<{ m: TestApp; admin: string }> {
  const m = await createTestApp({ VERIFY_PROVIDER: "manual" });
  return { m, admin: await m.adminToken() };
}

/** POST /user/verify/review: name and number with photos of the ID card, for an operator's review. */
export async function postReview(app: TestApp, token: string, fields: Record<string, string>, files: Files) {
  const { payload, contentType } = await multipart(fields, files);
  const res = await app.app.inject({
    method: "POST",
    url: "/api/user/verify/review",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    payload,
  });
  return {
    status: res.statusCode,
    body: res.json() as { code: string | number; msg: string; data: VerifyStartResult },
  };
}

/**
 * A Manager approves a manual review the way the review page does: reads it (its version), then
 * approves that version.
 */
export async function approveReview(app: TestApp, adminToken: string, uid: number) {
  const review = await app.api<AdminVerifyReview>("GET", "/super/user/verify/review", {
    token: adminToken,
    query: { uid },
  });
  return app.api<AdminVerifyView>("POST", "/super/user/verify", {
    token: adminToken,
    body: { uid, action: "approve", version: review.body.data.version },
  });
}

/**
 * Valid resident ID numbers, unique within one test file's database: region, birth date (1990-03-07
 * unless given; the year moves on every thousand), a sequence from `start`, and the check digit.
 */
export function idNumbers(start = 0): (birth?: string, region?: string) => string {
  let n = start;
  return (birth, region = "110101") => {
    n++;
    const first17 = `${region}${birth ?? `${1990 + Math.floor(n / 1000)}0307`}${String(n % 1000).padStart(3, "0")}`;
    return `${first17}${idCheckDigit(first17)}`;
  };
}
