import { describe, expect, it } from "vitest";
import { filtersFromSearch, filtersToSearch } from "./filters";
import { buildUpdate } from "./user-actions";

describe("user list filters in the URL", () => {
  it("reads defaults from an empty query", () => {
    expect(filtersFromSearch(new URLSearchParams())).toEqual({
      page: 1,
      size: 10,
      phone: undefined,
      uid: undefined,
      status: undefined,
      role: undefined,
      start_date: undefined,
      end_date: undefined,
    });
  });

  it("round-trips every filter and drops defaults", () => {
    const filters = filtersFromSearch(
      new URLSearchParams("page=3&size=20&phone=138&uid=7&status=-1&role=3&start_date=2025-01-01&end_date=2025-01-31"),
    );
    expect(filters).toMatchObject({ page: 3, size: 20, phone: "138", uid: 7, status: -1, role: 3 });
    expect(filtersToSearch(filters).toString()).toBe(
      "page=3&size=20&phone=138&uid=7&status=-1&role=3&start_date=2025-01-01&end_date=2025-01-31",
    );
    expect(filtersToSearch({ page: 1, size: 10 }).toString()).toBe("");
  });

  it("ignores junk and clamps paging", () => {
    expect(filtersFromSearch(new URLSearchParams("page=-2&size=1000&uid=abc"))).toMatchObject({
      page: 1,
      size: 100,
      uid: undefined,
    });
  });
});

describe("buildUpdate", () => {
  const user = { uid: 9, phone: "13900000009" };

  it("converts a yuan adjustment to signed fen", () => {
    expect(buildUpdate("balance", user, { direction: "add", amount: 12.34, balance_reason: " 补偿 " }).body).toEqual({
      uid: 9,
      balance_change: 1234,
      balance_reason: "补偿",
    });
    const deduct = buildUpdate("balance", user, { direction: "deduct", amount: 0.1, balance_reason: "扣费" });
    expect(deduct.body.balance_change).toBe(-10);
    expect(deduct.confirm).toContain("扣减余额 ¥0.10");
  });

  it("bans with a reason", () => {
    expect(buildUpdate("ban", user, { ban_reason: "违规使用" }).body).toEqual({
      uid: 9,
      status: -1,
      ban_reason: "违规使用",
    });
  });

  it("names the user by phone in the confirmation, 未绑定 for an account without one", () => {
    expect(buildUpdate("ban", user, { ban_reason: "x" }).confirm).toContain("13900000009（UID 9）");
    expect(buildUpdate("ban", { uid: 9, phone: "" }, { ban_reason: "x" }).confirm).toContain(
      "确认封禁 未绑定（UID 9）",
    );
  });

  it("sends only the field being changed", () => {
    expect(buildUpdate("role", user, { role: 2 }).body).toEqual({ uid: 9, role: 2 });
    expect(buildUpdate("nickname", user, { nickname: " 新名字 " }).body).toEqual({ uid: 9, nickname: "新名字" });
    expect(buildUpdate("password", user, { password: "new-pass-123", confirm: "new-pass-123" }).body).toEqual({
      uid: 9,
      password: "new-pass-123",
    });
  });
});
