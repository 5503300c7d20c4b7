import type { BannedData } from "@burrow/contract/codes";

// What the web knows of a ban (issue 35 §11): the reason a 30005 answer named and, after a sign-in
// with the right password, the appeal session. Kept for this tab only (sessionStorage): the appeal
// session can do nothing but the ban appeal, and need not outlive the tab.

const KEY = "BANNED";

/** The ban as the appeal page shows it. */
export interface BanState {
  ban_reason: string | null;
  /** the appeal session; absent when the ban was learnt from a call, not from a sign-in */
  appeal?: { token: string; expires_at: string };
}

/** Keeps what a 30005 answer said (an answer without an appeal session keeps none). */
export function saveBan(data: unknown): void {
  const d = (data ?? {}) as Partial<BannedData>;
  const state: BanState = { ban_reason: typeof d.ban_reason === "string" ? d.ban_reason : null };
  if (d.appeal && typeof d.appeal.token === "string") state.appeal = d.appeal;
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    // storage off: the page says what the answer said, once
  }
}

/** The ban last learnt in this tab; an expired appeal session is left out. */
export function readBan(): BanState | null {
  try {
    const raw = window.sessionStorage.getItem(KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as BanState;
    if (s.appeal && Date.parse(s.appeal.expires_at) <= Date.now()) delete s.appeal;
    return s;
  } catch {
    return null;
  }
}

/** Forgets the ban (signed out of the appeal, or the account is no longer banned). */
export function clearBan(): void {
  try {
    window.sessionStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}
