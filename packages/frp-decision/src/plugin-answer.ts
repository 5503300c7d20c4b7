/** The plugin's answers (frp-protocol.md §1.3) and the step that keeps a warm decision synchronous. */
import type { PluginResponse } from "@burrow/contract";
import type { Maybe } from "./state";

/** The canonical answers of frp-protocol.md §1.3. `unchange` is always explicit: absent means "replace". */
export const ALLOW: PluginResponse = Object.freeze({ reject: false, unchange: true });
/** A refusal; frpc sees `reason` (detailedErrorsToClient is on in Burrow's frps.toml). */
export const reject = (reason: string): PluginResponse => ({ reject: true, reject_reason: reason });
export const modify = <C>(content: C): PluginResponse<C> => ({ reject: false, unchange: false, content });

/** An HTTP status and body for the plugin route. */
export interface PluginAnswer {
  status: number;
  body: PluginResponse;
}

export const ALLOWED: PluginAnswer = Object.freeze({ status: 200, body: ALLOW });

/**
 * `f(v)`, at once when `v` is a value. The plugin answers from memory: once the cache is warm a
 * decision runs synchronously, without a microtask and a promise per step (it runs for every
 * visitor connection); only a cache miss waits for the database. Not named `then`: a module
 * exporting `then` is a thenable, and a dynamic import of it never settles as the module.
 */
export function chain<T, U>(v: Maybe<T>, f: (v: T) => Maybe<U>): Maybe<U> {
  return v instanceof Promise ? v.then(f) : f(v);
}
