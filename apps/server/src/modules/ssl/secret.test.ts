import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/harness";
import { openKey, sealKey } from "./secret";

/*
 * The private keys stored before ssl used shared/secret-box must still open: these values were
 * sealed by the earlier ssl/secret.ts (its own AES-GCM code) and copied here verbatim.
 */
const PEM =
  "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIFixtureKeyBytesForTheOldFormat0123456789ab\n-----END PRIVATE KEY-----\n";
/** Sealed under SSL_KEY_SECRET = ENV_SECRET for `cert:7:old.example.test`. */
const ENV_SECRET = "fixture-ssl-key-secret-0123456789abcdef";
const SEALED_ENV =
  "v1.uUtKW3KV88kK2FXf.FnXPTUTsM3GVZtYeYMLxNg.WkSKeV3K_ZdJSm1-6K84Qr3MkKyotjQaw8Ro0--wGlcQin1GHli830ie0flTAiLFsRwFgRrjhhyufavnJjn3kxzpDW7C1sZfMJOxK5-sKsmyIptmfyg9ir_6Sn0IyvUK5vKa4z6IxX-HgITSoFed4lHPYGDz2A";
/** Sealed under the secret an older Burrow generated into settings `ssl_key_secret` (no SSL_KEY_SECRET). */
const SETTING_SECRET = "generated-setting-secret-from-an-older-burrow-0123";
const ACCOUNT = "acme-account:https://acme.example.test/directory";
const SEALED_SETTING =
  "v1.kt9Vox6ElY80PUzv.tOYzYoyWN6i3O76fV3m0Ag.KtwAKKrLvSmZtm2L4VFImgEC1kOzWQLPbWy8tfqpPyrcJnIPVMuSpKaPPZU8FlikoZoBkNpg9_OPjXedcR0n9sGLVWL4Qks3fyJFU-BBYmmnT145KhBNEMiq5ZRB_lZE57BiyDX4C-B2Sk0RTSv3WHDWySRtjA";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.db.insertInto("settings").values({ key: "ssl_key_secret", value: SETTING_SECRET }).execute();
});
afterAll(() => t.close());

const withEnvSecret = { config: { NODE_ENV: "production", SSL_KEY_SECRET: ENV_SECRET } } as never;

describe("private keys stored by the earlier ssl code", () => {
  it("open under SSL_KEY_SECRET, and only for what they were sealed for", async () => {
    expect(await openKey(withEnvSecret, SEALED_ENV, "cert:7:old.example.test")).toBe(PEM);
    await expect(openKey(withEnvSecret, SEALED_ENV, "cert:8:old.example.test")).rejects.toThrow();
    await expect(openKey(t.ctx, SEALED_ENV, "cert:7:old.example.test")).rejects.toThrow();
  });

  it("open under the secret generated into settings", async () => {
    expect(await openKey(t.ctx, SEALED_SETTING, ACCOUNT)).toBe(PEM);
  });

  it("new keys are stored in the same format and open again", async () => {
    const sealed = await sealKey(withEnvSecret, PEM, "cert:9:new.example.test");
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toBe(SEALED_ENV);
    expect(await openKey(withEnvSecret, sealed, "cert:9:new.example.test")).toBe(PEM);
  });
});
