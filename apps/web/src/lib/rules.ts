import type { FormRule } from "antd";
import type { ZodType } from "zod";

/** Mainland mobile number; the same rule as `Phone` in @burrow/contract (the unit test checks they agree). */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
/** Six-digit SMS code; the same rule as `SmsCode` in @burrow/contract. */
export const SMS_CODE_PATTERN = /^\d{6}$/;
/** Password length bounds; the same as `Password` in @burrow/contract. */
export const PASSWORD_LENGTH = { min: 8, max: 64 } as const;

/** The generic message texts of SPEC §5, in one place. */
export const ruleMessages = {
  /** "请输入{label}" (text inputs) */
  required: (label: string) => `请输入${label}`,
  /** "请选择{label}" (selects, dates, uploads) */
  requiredChoice: (label: string) => `请选择${label}`,
  /** "{label}长度为 {min}-{max} 位", or the one-sided forms */
  length: (label: string, min?: number, max?: number) => {
    if (min !== undefined && max !== undefined) return `${label}长度为 ${min}-${max} 位`;
    if (min !== undefined) return `${label}长度至少 ${min} 位`;
    return `${label}长度最多 ${max} 位`;
  },
  /** "{label}范围为 {min}-{max}", or the one-sided forms */
  range: (label: string, min?: number, max?: number) => {
    if (min !== undefined && max !== undefined) return `${label}范围为 ${min}-${max}`;
    if (min !== undefined) return `${label}不能小于 ${min}`;
    return `${label}不能大于 ${max}`;
  },
  /** "{label}格式不正确" */
  invalid: (label: string) => `${label}格式不正确`,
  /** "两次输入的{label}不一致" */
  mismatch: (label: string) => `两次输入的${label}不一致`,
};

/** What a field must satisfy; every message is generated from `label`. */
export interface FieldRuleOptions {
  /** the field must be filled */
  required?: boolean;
  /** the field is chosen rather than typed: the required message says 请选择 */
  choice?: boolean;
  /** text length bounds, in characters */
  length?: { min?: number; max?: number };
  /** numeric bounds */
  range?: { min?: number; max?: number };
  /** the value must be a whole number */
  integer?: boolean;
  /** a format the text must match */
  pattern?: RegExp;
  /** a built-in format */
  type?: "email" | "url";
}

/**
 * Builds antd Form rules with the generic messages of SPEC §5.
 * @param label the field's label as shown to the person ("手机号")
 * @param options what the field must satisfy
 * @returns rules for `<Form.Item rules>`
 */
export function fieldRules(label: string, options: FieldRuleOptions = {}): FormRule[] {
  const rules: FormRule[] = [];
  if (options.required) {
    const text = !options.choice && !options.range && !options.integer;
    // A rule of only `required` is type-agnostic; adding `whitespace` makes the validator treat the
    // value as a string, which is right for text and wrong for numbers and select values.
    rules.push(
      text
        ? { required: true, whitespace: true, message: ruleMessages.required(label) }
        : {
            required: true,
            message: options.choice ? ruleMessages.requiredChoice(label) : ruleMessages.required(label),
          },
    );
  }
  if (options.length) {
    const { min, max } = options.length;
    rules.push({ type: "string", min, max, message: ruleMessages.length(label, min, max) });
  }
  if (options.integer) {
    rules.push({ type: "integer", message: ruleMessages.invalid(label) });
  }
  if (options.range) {
    const { min, max } = options.range;
    rules.push({ type: "number", min, max, message: ruleMessages.range(label, min, max) });
  }
  if (options.pattern) {
    rules.push({ pattern: options.pattern, message: ruleMessages.invalid(label) });
  }
  if (options.type) {
    rules.push({ type: options.type, message: ruleMessages.invalid(label) });
  }
  return rules;
}

/** Rules of a mobile-number field. */
export const phoneRules = (label = "手机号", required = true) =>
  fieldRules(label, { required, pattern: PHONE_PATTERN });

/** Rules of an SMS-code field. */
export const smsCodeRules = (label = "验证码") => fieldRules(label, { required: true, pattern: SMS_CODE_PATTERN });

/** Rules of a new-password field. */
export const passwordRules = (label = "密码") => fieldRules(label, { required: true, length: PASSWORD_LENGTH });

/**
 * Rules of a "repeat it" field that must equal another field.
 * @param otherField name of the field to match
 * @param label label of the original field ("密码")
 * @param confirmLabel label of this field, for the required message
 */
export function confirmRules(otherField: string, label: string, confirmLabel = `确认${label}`): FormRule[] {
  return [
    { required: true, message: ruleMessages.required(confirmLabel) },
    ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        !value || getFieldValue(otherField) === value
          ? Promise.resolve()
          : Promise.reject(new Error(ruleMessages.mismatch(label))),
    }),
  ];
}

/**
 * A rule that checks a text field with the contract's own schema, so that the form and the server
 * refuse the same values with the same message. Empty values pass (say `required` separately).
 */
export function schemaRule(schema: ZodType): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      if (value === undefined || value === null || value === "") return Promise.resolve();
      const r = schema.safeParse(value);
      return r.success ? Promise.resolve() : Promise.reject(new Error(r.error.issues[0]?.message ?? "格式不正确"));
    },
  };
}

/** schemaRule for a list field (tags, multiple lines): every entry must pass. */
export function eachRule(schema: ZodType): FormRule {
  return {
    validator: (_rule, value: unknown[] | undefined) => {
      for (const v of value ?? []) {
        const r = schema.safeParse(v);
        if (!r.success) return Promise.reject(new Error(r.error.issues[0]?.message ?? "格式不正确"));
      }
      return Promise.resolve();
    },
  };
}
