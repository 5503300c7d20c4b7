import type { Generated } from "kysely";

/** One item of a person's notification centre (migration 2026-11-28T09-10); pruned after 90 days. */
export interface NoticeTable {
  id: Generated<number>;
  uid: number;
  /** a NoticeEventType */
  type: string;
  title: string;
  body: string;
  /** a console path the notice opens, or null */
  link: string | null;
  /** the outbox event it came from: one notice per person and event */
  event_id: number;
  read_at: string | null;
  created_at: string;
}

/** One message of one event to one person on one channel (site, email, sms): sent at most once. */
export interface NoticeDeliveryTable {
  id: Generated<number>;
  event_id: number;
  uid: number;
  type: string;
  channel: string;
  /** what debouncing groups by ("tunnel:<id>"), null for the rest */
  subject: string | null;
  /** when the event was recorded */
  event_at: string;
  /** not sent before this (tunnel status: the debounce delay) */
  due_at: string;
  /** pending | sent | cancelled (debounced away) | skipped (no address) | failed (gave up) */
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
  title: string;
  body: string;
  link: string | null;
}

/** A person's channels for one event type; no row: the catalogue's defaults. */
export interface NoticePrefTable {
  uid: number;
  type: string;
  /** comma-separated channels besides "site" */
  channels: string;
  updated_at: string;
}

/** A person's notice e-mail address (users have none of their own), verified by a mailed code. */
export interface NoticeEmailTable {
  uid: number;
  email: string;
  verified_at: string | null;
  /** SHA-256 of the pending code, null once verified */
  code_hash: string | null;
  code_expires_at: string | null;
  code_attempts: Generated<number>;
  updated_at: string;
}

/** Owned by the notices module. */
export interface NoticesTables {
  notices: NoticeTable;
  notice_deliveries: NoticeDeliveryTable;
  notice_prefs: NoticePrefTable;
  notice_emails: NoticeEmailTable;
}
