import { hash, verify } from "@node-rs/argon2";

/** argon2id with the library defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export const hashPassword = (password: string): Promise<string> => hash(password);

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}
