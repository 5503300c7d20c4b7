import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeChain } from "../../../test/certs";
import { createTestApp, type TestApp } from "../../../test/harness";
import { multipart } from "../../../test/verify-fixtures";
import { DAY_MS } from "../../shared/time";
import { checkUpload } from "../ssl/pem";
import { storeCertificate } from "../ssl/uploads";
import { eraseDueAccounts } from "./erasure";

// The erasure (docs/leaving.md) takes what an account keeps outside its rows' personal columns:
// avatar files on disk and certificates with their private keys. Another customer's stay.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SSL_KEY_SECRET: "an-ssl-key-secret-for-the-tests-0123456789" });
});
afterAll(() => t.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

/** A customer with an uploaded avatar (POST /user/avatar) and a stored certificate and key for their domain. */
async function customerWithFiles(tag: string) {
  const u = await t.register();
  const { payload, contentType } = await multipart({}, { file: PNG });
  const res = await t.app.inject({
    method: "POST",
    url: "/api/user/avatar",
    headers: { authorization: `Bearer ${u.token}`, "content-type": contentType },
    payload,
  });
  const url = (res.json() as { data: { url: string } }).data.url;
  expect(url).toMatch(new RegExp(`^/api/uploads/avatars/${u.uid}-`));
  const file = path.join(t.ctx.config.DATA_DIR, "uploads", "avatars", path.basename(url));
  const domain = `${tag}-${u.uid}.example.test`;
  const { leaf, intermediate } = await makeChain([domain]);
  const checked = checkUpload({
    certificate: leaf.pem + intermediate.pem,
    privateKey: leaf.keyPem,
    domain,
    now: new Date(),
  });
  await storeCertificate(t.ctx, u.uid, domain, "upload", checked, null, new Date());
  // an ACME order in flight holds a key of its own
  const at = new Date().toISOString();
  await t.db
    .insertInto("ssl_orders")
    .values({
      ...{ uid: u.uid, domain, cert_id: null, renewal: 0, challenge: "http-01", step: "pending", message: null },
      ...{ history: "[]", directory: "https://acme.test/dir", order_url: "", authz_url: "", challenge_url: "" },
      ...{ token: "tok", record_value: "val", key_enc: "sealed", checks: 0, next_check_at: null, lease_until: null },
      ...{ created_at: at, updated_at: at },
    })
    .execute();
  return { ...u, url, file };
}

const certsOf = (uid: number) => t.db.selectFrom("ssl_certificates").select("key_enc").where("uid", "=", uid).execute();
const ordersOf = (uid: number) => t.db.selectFrom("ssl_orders").select("key_enc").where("uid", "=", uid).execute();

describe("erasure of files and keys", () => {
  it("removes the account's avatar files and its certificates with their keys; another customer's are kept", async () => {
    const leaving = await customerWithFiles("gone");
    const staying = await customerWithFiles("kept");
    expect(fs.existsSync(leaving.file)).toBe(true);
    expect(await certsOf(leaving.uid)).toHaveLength(1);
    expect(await ordersOf(leaving.uid)).toHaveLength(1);

    const r = await t.api("POST", "/user/leaving", {
      token: leaving.token,
      body: { password: leaving.password, confirm: "注销账号" },
    });
    expect(r.body.code).toBe("SUCCESS");
    expect(await eraseDueAccounts(t.ctx, new Date(Date.now() + 8 * DAY_MS))).toBe(1);

    expect(fs.existsSync(leaving.file)).toBe(false);
    expect((await t.app.inject({ method: "GET", url: leaving.url })).statusCode).toBe(404);
    expect(await certsOf(leaving.uid)).toEqual([]);
    expect(await ordersOf(leaving.uid)).toEqual([]);

    expect(fs.existsSync(staying.file)).toBe(true);
    expect((await t.app.inject({ method: "GET", url: staying.url })).statusCode).toBe(200);
    expect(await certsOf(staying.uid)).toHaveLength(1);
    expect(await ordersOf(staying.uid)).toHaveLength(1);
  });
});
