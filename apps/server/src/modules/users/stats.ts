import { UserStatus } from "@burrow/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../db/schema";
import type { Figure } from "../../shared/figures";

// The users table's figures for the operators' overview (its owner writes the queries).

/** Users who signed up in [from, to). */
export const signupsBetween = (db: Kysely<DB>, from: string, to: string): Figure =>
  db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("created_at", ">=", from)
    .where("created_at", "<", to);

/** Banned accounts. */
export const bannedUsers = (db: Kysely<DB>): Figure =>
  db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("status", "=", UserStatus.Banned);
