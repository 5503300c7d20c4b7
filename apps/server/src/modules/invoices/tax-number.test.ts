import { CreateInvoiceBody, usccCheckChar, usccProblem } from "@burrow/contract";
import { describe, expect, it } from "vitest";

/**
 * The unified social credit code check (GB 32100-2015) shared by the web form and the server
 * (packages/contract/src/invoices.ts). The valid codes are published codes of real organisations
 * and the standard's own example, so the check character arithmetic is tested against the world,
 * not against itself.
 */
const REAL = [
  "91350100M000100Y43", // GB 32100-2015's example
  "91110108551385082Q",
  "914403001922038216",
  "91440300708461136T",
  "91110000600037341L",
  "12100000400000624D",
];

describe("unified social credit code", () => {
  it.each(REAL)("accepts %s and computes its check character", (code) => {
    expect(usccProblem(code)).toBeNull();
    expect(usccCheckChar(code.slice(0, 17))).toBe(code[17]);
    expect(usccProblem(` ${code.toLowerCase()} `)).toBeNull();
  });

  it.each(REAL)("refuses %s with any other check character", (code) => {
    for (const c of "0123456789ABCDEFGHJKLMNPQRTUWXY") {
      if (c === code[17]) continue;
      expect(usccProblem(code.slice(0, 17) + c)).toBe("统一社会信用代码校验位不正确，请检查是否输错");
    }
  });

  it("names what is wrong: length, a letter the standard excludes, the division code", () => {
    expect(usccProblem("9111010855138508")).toContain("当前为 16 位");
    expect(usccProblem("91110108551385O82Q")).toContain("不能包含字符 O");
    expect(usccProblem("91110108551385I82Q")).toContain("不能包含字符 I");
    expect(usccProblem("91A10108551385082Q")).toContain("行政区划代码");
    // A swap of two characters (the commonest typing slip) is caught by the check character.
    expect(usccProblem("91110108553185082Q")).toContain("校验位");
  });

  it("is required for a company title and refused on a personal one, upper-cased when accepted", () => {
    const base = { trade_ids: ["20261124000000123456"], title: "示例科技有限公司", email: "a@example.com" };
    const company = CreateInvoiceBody.safeParse({ ...base, title_type: "company", tax_no: "91110108551385082q" });
    expect(company.success && company.data.tax_no).toBe("91110108551385082Q");
    const missing = CreateInvoiceBody.safeParse({ ...base, title_type: "company" });
    expect(missing.error?.issues[0]).toMatchObject({ path: ["tax_no"], message: "企业抬头请填写纳税人识别号" });
    const personal = CreateInvoiceBody.safeParse({ ...base, title_type: "personal", tax_no: REAL[0] });
    expect(personal.error?.issues[0].path).toEqual(["tax_no"]);
    expect(CreateInvoiceBody.safeParse({ ...base, title_type: "personal", tax_no: "" }).success).toBe(true);
  });
});
