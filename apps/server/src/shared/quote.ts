/*
 * Quoting for values written into scripts a customer or an operator runs (installers): every
 * interpolated value goes through the quoting of its language, never a hand-made string.
 */

/** A value for a POSIX shell, single-quoted. */
export const shq = (v: string | number): string => `'${String(v).replaceAll("'", `'\\''`)}'`;

/** A value for PowerShell, single-quoted (a quote doubled; PowerShell also closes on the typographic ones). */
export const psq = (v: string | number): string => `'${String(v).replace(/['‘’‚‛]/g, "$&$&")}'`;

/** Text for XML content or an attribute. */
export const xmlText = (v: string | number): string =>
  String(v)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");

/** One line of plain text for a comment or a description: control characters (newlines) become spaces. */
export const oneLine = (v: string): string => v.replace(/[\p{Cc}\u2028\u2029]/gu, " ");
