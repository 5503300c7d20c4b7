import { CustomDomain, HttpLocation, Password, Phone, SmsCode, TunnelName } from "@burrow/contract";
import Schema from "@rc-component/async-validator";
import type { FormRule } from "antd";
import { describe, expect, it } from "vitest";
import {
  eachRule,
  fieldRules,
  PHONE_PATTERN,
  passwordRules,
  phoneRules,
  ruleMessages,
  SMS_CODE_PATTERN,
  schemaRule,
  smsCodeRules,
} from "./rules";

/** Runs rules through the validator antd's Form uses and returns the first message, or null. */
async function firstError(rules: FormRule[], value: unknown): Promise<string | null> {
  const validator = new Schema({ field: rules as never });
  try {
    await validator.validate({ field: value }, { first: true });
    return null;
  } catch (e) {
    const { errors } = e as { errors: { message: string }[] };
    return errors[0]?.message ?? "unknown";
  }
}

describe("ruleMessages", () => {
  it("uses the generic texts of SPEC §5", () => {
    expect(ruleMessages.required("手机号")).toBe("请输入手机号");
    expect(ruleMessages.requiredChoice("角色")).toBe("请选择角色");
    expect(ruleMessages.length("密码", 8, 64)).toBe("密码长度为 8-64 位");
    expect(ruleMessages.length("昵称", undefined, 32)).toBe("昵称长度最多 32 位");
    expect(ruleMessages.length("密码", 8)).toBe("密码长度至少 8 位");
    expect(ruleMessages.range("金额", 1, 100)).toBe("金额范围为 1-100");
    expect(ruleMessages.range("UID", 1)).toBe("UID不能小于 1");
    expect(ruleMessages.invalid("邮箱")).toBe("邮箱格式不正确");
  });
});

describe("fieldRules", () => {
  it("reports a missing or blank value as required", async () => {
    const rules = fieldRules("昵称", { required: true });
    expect(await firstError(rules, undefined)).toBe("请输入昵称");
    expect(await firstError(rules, "   ")).toBe("请输入昵称");
    expect(await firstError(rules, "小明")).toBeNull();
  });

  it("says 请选择 for choices, and accepts non-string choices", async () => {
    const rules = fieldRules("角色", { required: true, choice: true });
    expect(await firstError(rules, undefined)).toBe("请选择角色");
    expect(await firstError(rules, 2)).toBeNull();
    expect(await firstError(rules, "add")).toBeNull();
  });

  it("checks length", async () => {
    const rules = fieldRules("密码", { required: true, length: { min: 8, max: 64 } });
    expect(await firstError(rules, "short")).toBe("密码长度为 8-64 位");
    expect(await firstError(rules, "x".repeat(65))).toBe("密码长度为 8-64 位");
    expect(await firstError(rules, "long-enough")).toBeNull();
  });

  it("checks numeric range and integers", async () => {
    const range = fieldRules("金额", { required: true, range: { min: 0.01, max: 100 } });
    expect(await firstError(range, 0)).toBe("金额范围为 0.01-100");
    expect(await firstError(range, 100.5)).toBe("金额范围为 0.01-100");
    expect(await firstError(range, 12.3)).toBeNull();
    expect(await firstError(range, undefined)).toBe("请输入金额");
    expect(await firstError(fieldRules("UID", { integer: true }), 1.5)).toBe("UID格式不正确");
  });

  it("checks formats", async () => {
    expect(await firstError(fieldRules("邮箱", { type: "email" }), "nope")).toBe("邮箱格式不正确");
    expect(await firstError(phoneRules(), "12345")).toBe("手机号格式不正确");
    expect(await firstError(phoneRules(), "13800000000")).toBeNull();
    expect(await firstError(smsCodeRules(), "12a456")).toBe("验证码格式不正确");
    expect(await firstError(passwordRules("新密码"), "1234567")).toBe("新密码长度为 8-64 位");
  });

  it("leaves optional fields alone when empty", async () => {
    expect(await firstError(phoneRules("手机号", false), undefined)).toBeNull();
    expect(await firstError(fieldRules("邀请码", { length: { max: 32 } }), "")).toBeNull();
  });
});

describe("patterns agree with @burrow/contract", () => {
  it.each(["13800000000", "19912345678", "12800000000", "1380000000", "138000000001", "abc"])("phone %s", (v) => {
    expect(PHONE_PATTERN.test(v)).toBe(Phone.safeParse(v).success);
  });
  it.each(["123456", "12345", "1234567", "12a456"])("sms code %s", (v) => {
    expect(SMS_CODE_PATTERN.test(v)).toBe(SmsCode.safeParse(v).success);
  });
  it.each(["1234567", "12345678", "x".repeat(64), "x".repeat(65)])("password %s", async (v) => {
    expect((await firstError(passwordRules(), v)) === null).toBe(Password.safeParse(v).success);
  });
});

describe("schemaRule and eachRule: the contract's own schemas in a form", () => {
  it("refuses what the server refuses, with the contract's message, and lets an empty field pass", async () => {
    expect(await firstError([schemaRule(TunnelName)], "home-nas_1")).toBeNull();
    expect(await firstError([schemaRule(TunnelName)], "家里 nas")).toBe("隧道名称只能包含文字、数字、下划线和短横线");
    expect(await firstError([schemaRule(TunnelName)], "x".repeat(33))).toBe("隧道名称最多 32 个字符");
    expect(await firstError([schemaRule(TunnelName)], "")).toBeNull();
  });

  it("checks every entry of a list", async () => {
    expect(await firstError([eachRule(HttpLocation)], ["/", "/api"])).toBeNull();
    expect(await firstError([eachRule(HttpLocation)], ["/", "api"])).toBe("路径须以 / 开头且不含空白");
    expect(await firstError([eachRule(CustomDomain)], ["*.example.com", "a.example.com"])).toBeNull();
    expect(await firstError([eachRule(CustomDomain)], ["a.example.com", "*.*.example.com"])).toBe(
      "泛域名只能在最左边使用一个 *，例如 *.example.com",
    );
    expect(await firstError([eachRule(CustomDomain)], ["*.com.cn"])).toBe("com.cn 是公共后缀，不能使用 *.com.cn");
    expect(await firstError([eachRule(CustomDomain)], undefined)).toBeNull();
  });
});
