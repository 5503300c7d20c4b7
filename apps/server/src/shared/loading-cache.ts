import type { EventBus } from "./events";

/**
 * A keyed cache with single-flight loading, a safety TTL and a size cap, for the in-memory caches
 * that change events keep fresh (the frp decision cache, sessions and users). `invalidate` drops
 * the value and forgets a load in flight, so a load that raced with a change is never stored.
 */
export class LoadingCache<K, V> {
  private readonly values = new Map<K, { value: V; expires: number }>();
  private readonly loading = new Map<K, Promise<V>>();

  constructor(
    protected readonly loader: (key: K) => Promise<V>,
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  /** The cached value when fresh; never touches the database. */
  peek(key: K, now = Date.now()): V | undefined {
    const hit = this.values.get(key);
    if (!hit) return undefined;
    if (hit.expires <= now) {
      this.values.delete(key);
      return undefined;
    }
    return hit.value;
  }

  /** The value, loading it once if it is not cached. */
  get(key: K): V | Promise<V> {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const p = this.loader(key).then(
      (value) => {
        if (this.loading.get(key) === p) {
          this.loading.delete(key);
          // Insertion order doubles as age: evict the oldest entries past the cap.
          if (this.values.size >= this.max) this.values.delete(this.values.keys().next().value as K);
          // ±25% jitter: entries loaded together (a node's clients logging in after a restart)
          // do not all expire, and reload from the database on the hot path, at the same moment.
          this.values.set(key, { value, expires: Date.now() + this.ttlMs * (0.75 + Math.random() * 0.5) });
        }
        return value;
      },
      (err) => {
        if (this.loading.get(key) === p) this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, p);
    return p;
  }

  invalidate(key: K): void {
    this.values.delete(key);
    this.loading.delete(key);
  }

  /**
   * Drops every value `match` selects, and every load in flight (whose value is not known yet):
   * for changes that name something other than the key (all sessions of one user).
   */
  invalidateWhere(match: (value: V) => boolean): void {
    for (const [key, hit] of this.values) if (match(hit.value)) this.values.delete(key);
    this.loading.clear();
  }

  /** Drops the values and the loads in flight of every key `match` selects. */
  invalidateKeys(match: (key: K) => boolean): void {
    for (const key of this.values.keys()) if (match(key)) this.values.delete(key);
    for (const key of this.loading.keys()) if (match(key)) this.loading.delete(key);
  }

  clear(): void {
    this.values.clear();
    this.loading.clear();
  }

  get size(): number {
    return this.values.size;
  }
}

/**
 * A LoadingCache kept fresh by change events that trusts itself only while they arrive
 * (`events.live`): otherwise (Redis configured but unreachable) every `get` loads from the
 * database, nothing is stored, and the cache starts over once the subscription is back, since
 * changes announced meanwhile were missed.
 */
export class EventedCache<K, V> extends LoadingCache<K, V> {
  constructor(
    loader: (key: K) => Promise<V>,
    ttlMs: number,
    max: number,
    private readonly events: Pick<EventBus, "live" | "onResync">,
  ) {
    super(loader, ttlMs, max);
    events.onResync(() => this.clear());
  }

  override peek(key: K, now = Date.now()): V | undefined {
    return this.events.live ? super.peek(key, now) : undefined;
  }

  override get(key: K): V | Promise<V> {
    return this.events.live ? super.get(key) : this.loader(key);
  }
}
