import type { Redis } from "ioredis";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Config } from "./config";
import type { DB } from "./db/schema";
import type { PasswordWork } from "./modules/auth/passwords";
import type { SmsDriver } from "./modules/auth/sms";
import type { EventBus } from "./shared/events";
import type { RateLimiter } from "./shared/rate-limit";

/** Where an awaiting online order is paid: the configured gateway's link (payments module). */
export interface PaymentGateway {
  payUrl(order: { trade_id: string; name: string; amount: number; pay_type: string | null }): string;
}

/** Everything a service needs, built once in buildApp and passed explicitly (no globals). */
export interface AppContext {
  config: Config;
  db: Kysely<DB>;
  log: Logger;
  limiter: RateLimiter;
  sms: SmsDriver;
  /** argon2 hashing and verification, with bounded concurrency */
  passwords: PasswordWork;
  /** the payment gateway orders send customers to */
  payments: PaymentGateway;
  /** HS256 key for session tokens */
  jwtKey: CryptoKey;
  /** change notifications for in-memory caches (cross-process with Redis) */
  events: EventBus;
  /** set when REDIS_URL is configured */
  redis?: Redis;
}
