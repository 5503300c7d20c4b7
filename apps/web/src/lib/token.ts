/** The localStorage key holding the session token (SPEC §3 "Auth state"). */
export const TOKEN_KEY = "JWT";

/** @returns the stored token, or null when signed out */
export function getToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Stores the token returned by sign-in or registration. */
export function setToken(token: string): void {
  window.localStorage.setItem(TOKEN_KEY, token);
}

/** Drops the token (logout, session invalid). */
export function clearToken(): void {
  window.localStorage.removeItem(TOKEN_KEY);
}
