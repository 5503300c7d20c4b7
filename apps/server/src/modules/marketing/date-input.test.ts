import { DateTimeInput } from "@burrow/contract";
import { describe, expect, it } from "vitest";
import { adminSuite } from "../../../test/admin-fixtures";
import type { TestApp } from "../../../test/harness";

/* The marketing forms' dates (DateTimeInput): a day or time that does not exist is a field error, never rolled over. */

let t: TestApp;
let admin: string;
adminSuite((ready) => ({ t, admin } = ready));

describe("DateTimeInput", () => {
  it("reads a Shanghai day as its start or end and an instant with a zone as is", () => {
    expect(DateTimeInput("start").parse("2026-12-31")).toBe("2026-12-30T16:00:00.000Z");
    expect(DateTimeInput("end").parse("2026-12-31")).toBe("2026-12-31T15:59:59.000Z");
    expect(DateTimeInput("end").parse("2028-02-29")).toBe("2028-02-29T15:59:59.000Z");
    expect(DateTimeInput("end").parse("2026-12-31T08:30:00+08:00")).toBe("2026-12-31T00:30:00.000Z");
  });

  it("refuses days and times that do not exist instead of rolling them over", () => {
    for (const bad of ["2026-11-31", "2027-02-29", "2026-13-01", "2026-11-31T10:00:00Z", "2026-12-01T24:00:00Z"])
      expect(DateTimeInput("end").safeParse(bad).success, bad).toBe(false);
  });

  it("is a 400 naming expire_date through the API, and nothing is created", async () => {
    const before = await t.db.selectFrom("discount_codes").select("id").execute();
    const r = await t.api("POST", "/super/discountCode", {
      token: admin,
      body: { code: "NOV31", discount: 0.9, expire_date: "2026-11-31" },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(10000);
    expect(r.body.msg).toContain("expire_date");
    expect(await t.db.selectFrom("discount_codes").select("id").execute()).toEqual(before);
  });
});
