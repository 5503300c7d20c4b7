/** Whether a driver error is a unique-constraint violation (PostgreSQL 23505, SQLite CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
}
