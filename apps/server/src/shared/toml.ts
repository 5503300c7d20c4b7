/**
 * The few TOML building blocks Burrow's generated frps/frpc files need. TOML basic strings accept
 * JSON's escapes, so JSON.stringify quotes a string safely (quotes, backslashes, control chars).
 */
export const tomlString = (s: string): string => JSON.stringify(s);

/** An inline array of strings: ["a", "b"]. */
export const tomlStringArray = (items: readonly string[]): string => `[${items.map(tomlString).join(", ")}]`;

/** `key = value` for a string, number, boolean or string array; undefined/null values give no line. */
export function tomlLine(
  key: string,
  value: string | number | boolean | readonly string[] | null | undefined,
): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [`${key} = ${tomlString(value)}`];
  if (typeof value === "number" || typeof value === "boolean") return [`${key} = ${value}`];
  return [`${key} = ${tomlStringArray(value)}`];
}
