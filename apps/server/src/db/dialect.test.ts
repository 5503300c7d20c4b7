import { describe, expect, it } from "vitest";
import { createTestApp } from "../../test/harness";
import { isPostgres } from "./dialect";

describe("isPostgres", () => {
  it("answers the same for the database and for a transaction taken from it", async () => {
    const t = await createTestApp();
    try {
      const expected = process.env.TEST_DB === "postgres";
      expect(isPostgres(t.db)).toBe(expected);
      const inside = await t.db.transaction().execute(async (trx) => isPostgres(trx));
      expect(inside).toBe(expected);
    } finally {
      await t.close();
    }
  });
});
