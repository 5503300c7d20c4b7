import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness";
import { memoFigures, readFigures } from "./figures";
import { clearLargeMemo } from "./large-memo";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("readFigures", () => {
  it("reads each figure by its name from one statement, a sum over no rows as 0", async () => {
    const f = await readFigures(t.db, {
      seven: sql`select 7`,
      users: t.db.selectFrom("users").select((eb) => eb.fn.countAll().as("n")),
      none: t.db
        .selectFrom("users")
        .select((eb) => eb.fn.sum("balance").as("n"))
        .where("uid", "<", 0),
    });
    const users = Number(
      (
        await t.db
          .selectFrom("users")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(f).toEqual({ seven: 7, users, none: 0 });
  });
});

describe("memoFigures", () => {
  it("keeps a large figure a while, reads a small one and the live ones every time, building each only when read", async () => {
    clearLargeMemo(t.db);
    const value: { large: number; small: number; today?: number } = { large: 5_000, small: 3 };
    const built = { large: 0, small: 0 };
    const figures = {
      large: () => {
        built.large++;
        return sql`select ${sql.lit(value.large)}`;
      },
      small: () => {
        built.small++;
        return sql`select ${sql.lit(value.small)}`;
      },
    };
    const live = () => ({ today: sql`select ${sql.lit(value.today ?? 0)}` });
    value.today = 9_000_000;
    expect(await memoFigures(t.db, "test", figures, live())).toEqual({ large: 5_000, small: 3, today: 9_000_000 });
    value.large = 5_001;
    value.small = 4;
    value.today = 9_000_001;
    // within 5 s (a millisecond a row) the large one is kept; the small one and the live one are read again
    expect(await memoFigures(t.db, "test", figures, live())).toEqual({ large: 5_000, small: 4, today: 9_000_001 });
    expect(built).toEqual({ large: 1, small: 2 });
    // with nothing due, the live figures alone
    expect(await memoFigures(t.db, "test", { large: figures.large }, live())).toEqual({
      large: 5_000,
      today: 9_000_001,
    });
  });
});
