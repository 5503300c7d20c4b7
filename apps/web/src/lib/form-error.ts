import type { FormInstance } from "antd";
import { reportError } from "@/api/query-client";
import { putFieldError } from "./field-error";

/**
 * Puts a server error on the form field it names (code 10000 "phone: …", or 40001/40008 with a
 * field; an item of a list field, "custom_domains.0", counts for the list), and falls back to the
 * central toast. Use with `meta: { silentError: true }`.
 * @param form the form that sent the request
 * @param error what the mutation rejected with
 * @param fieldMap server field name → form field name, where they differ
 */
export function showFormError(form: FormInstance, error: unknown, fieldMap: Record<string, string> = {}): void {
  if (!putFieldError(form, error, fieldMap)) reportError(error);
}
