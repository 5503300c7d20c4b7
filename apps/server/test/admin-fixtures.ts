import { afterAll, beforeAll } from "vitest";
import { createTestApp, type TestApp } from "./harness";

const adminTokens = new WeakMap<TestApp, string>();

/** The operator's token, signed in once per test app. */
export async function adminOf(t: TestApp): Promise<string> {
  let token = adminTokens.get(t);
  if (!token) {
    token = await t.adminToken();
    adminTokens.set(t, token);
  }
  return token;
}

export interface AdminSuite {
  t: TestApp;
  admin: string;
}

/**
 * The set-up most API suites share: one app per file (`env` on top of the test config) and the
 * operator's token, closed after the file. Call it at the top of a file (or a describe block):
 * `bind` receives both in its beforeAll (and may go on setting up: it is awaited), ahead of the
 * file's own beforeAll hooks.
 * @example let t: TestApp; let admin: string; adminSuite((s) => ({ t, admin } = s));
 */
export function adminSuite(bind: (s: AdminSuite) => unknown, env: Record<string, string> = {}): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp(env);
    await bind({ t, admin: await adminOf(t) });
  });
  afterAll(() => t?.close());
}
