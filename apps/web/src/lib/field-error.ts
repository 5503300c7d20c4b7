import type { FormInstance } from "antd";
import { ApiError } from "@/api/transport";

/**
 * Puts a server error on the form field it names, if the form has that field (an item of a list
 * field, "custom_domains.0", counts for the list). Free of React Query, for /login's light host.
 * @returns whether the error was placed on a field
 */
export function putFieldError(form: FormInstance, error: unknown, fieldMap: Record<string, string> = {}): boolean {
  if (!(error instanceof ApiError) || !error.field) return false;
  const values = form.getFieldsValue();
  for (const field of new Set([error.field, error.field.replace(/(\.\d+)+$/, "")])) {
    const name = fieldMap[field] ?? field;
    if (name in values) {
      form.setFields([{ name, errors: [error.message] }]);
      return true;
    }
  }
  return false;
}
