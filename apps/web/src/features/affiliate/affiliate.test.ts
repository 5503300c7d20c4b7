import { describe, expect, it } from "vitest";
import { affDaysOption } from "./chart-options";
import { withdrawTarget } from "./components/WithdrawalTags";
import { inviteLink } from "./pages/AffCountPage";

describe("affiliate page helpers", () => {
  it("builds the invite link from the page's own origin and the code, encoded", () => {
    expect(inviteLink("ABCD2345", "https://console.example.com")).toBe(
      "https://console.example.com/reg?invite=ABCD2345",
    );
    expect(inviteLink("A&B", "http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080/reg?invite=A%26B");
  });

  it("charts rebates in yuan and sign-ups per day", () => {
    const option = affDaysOption([
      { date: "2026-11-23", rebate: 0, invited: 0 },
      { date: "2026-11-24", rebate: 1250, invited: 2 },
    ]) as { xAxis: { data: string[] }; series: { data: number[] }[] };
    expect(option.xAxis.data).toEqual(["11-23", "11-24"]);
    expect(option.series[0].data).toEqual([0, 12.5]);
    expect(option.series[1].data).toEqual([0, 2]);
  });

  it("names where a withdrawal goes", () => {
    expect(withdrawTarget({ method: "balance", account: null, bank_name: null })).toBe("账户余额");
    expect(withdrawTarget({ method: "bank", account: "**** 0202", bank_name: "工商银行" })).toBe(
      "银行卡 · 工商银行 · **** 0202",
    );
  });
});
