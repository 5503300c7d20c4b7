/**
 * frp's strict config loading (`--strict_config`, pkg/config/load.go): the TOML document is turned
 * into JSON and decoded with encoding/json's DisallowUnknownFields into frp's v1 config types, so a
 * key those types have no json tag for is refused with `json: unknown field "<key>"`. The flag came
 * in 0.53.0 (off by default) and has been on by default since 0.55.0; before that, and in 0.52.x
 * (which has no flag), unknown keys are ignored. Key sets (frp-config-keys.ts) are exact for frp
 * 0.61.2 and 0.70.1; other strict versions use the nearest older set (0.55–0.69 → 0.61.2).
 *
 * Go's decoding quirks reproduced: keys match case-insensitively (an exact match first), and are
 * renamed here to frp's spelling so the simulator reads them as frps/frpc would; JSON objects are
 * decoded in sorted key order and only the first unknown key is reported; an error from a proxy
 * (a custom UnmarshalJSON in 0.61.2) wins over an unknown top-level key saved before it.
 */
import { FRP_CONFIG_KEYS } from "./frp-config-keys";
import type { TomlTable, TomlValue } from "./toml";

/** A struct's keys: 0 a leaf (or a free map), a nested struct, or a list of structs. */
export type FrpKeyNode = 0 | FrpKeyStruct | [FrpKeyStruct];
export interface FrpKeyStruct {
  [key: string]: FrpKeyNode;
}
/** The keys of one frp version's v1 config types. */
export interface FrpKeySet {
  server: FrpKeyStruct;
  clientCommon: FrpKeyStruct;
  proxies: Record<string, FrpKeyStruct>;
  visitors: Record<string, FrpKeyStruct>;
  plugins: Record<string, FrpKeyStruct>;
  visitorPlugins: Record<string, FrpKeyStruct>;
}

/** A config frps/frpc refuses to load, with frp's own message. */
export class FrpConfigError extends Error {
  constructor(
    message: string,
    /** where the offending key is, e.g. "proxies[0].plugin.foo" (not part of frp's message) */
    readonly path?: string,
  ) {
    super(message);
    this.name = "FrpConfigError";
  }
}

const parts = (v: string) => v.split(".").map((x) => Number.parseInt(x, 10) || 0);
export const atLeast = (a: string, b: string): boolean => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return true;
};

/** The key set strict loading uses for a version, or undefined when unknown keys are ignored (< 0.55.0). */
export function frpKeySet(version: string): FrpKeySet | undefined {
  if (!atLeast(version, "0.55.0")) return undefined;
  return atLeast(version, "0.70.0") ? FRP_CONFIG_KEYS["0.70.1"] : FRP_CONFIG_KEYS["0.61.2"];
}

const isTable = (v: TomlValue | undefined): v is TomlTable => !!v && typeof v === "object" && !Array.isArray(v);

/** Go's field lookup: the exact name, else a case-insensitive match. */
function fieldOf(keys: FrpKeyStruct, k: string): string | undefined {
  if (Object.hasOwn(keys, k)) return k;
  const lower = k.toLowerCase();
  return Object.keys(keys).find((x) => x.toLowerCase() === lower);
}

interface Walk {
  /** first unknown key (encoding/json saves it and goes on) */
  unknown?: { key: string; path: string };
}

/**
 * Checks `t` against `keys` in sorted key order as encoding/json does, renaming keys to frp's
 * spelling; `skip` keys are decoded elsewhere (raw messages / custom UnmarshalJSON).
 */
function walk(t: TomlTable, keys: FrpKeyStruct, path: string, w: Walk, skip: readonly string[] = []): void {
  for (const k of Object.keys(t).sort()) {
    const field = fieldOf(keys, k);
    if (field === undefined) {
      w.unknown ??= { key: k, path: `${path}${k}` };
      continue;
    }
    if (field !== k && !Object.hasOwn(t, field)) {
      t[field] = t[k];
      delete t[k];
    }
    if (skip.includes(field)) continue;
    const node = keys[field];
    const v = t[field];
    if (Array.isArray(node) && Array.isArray(v))
      v.forEach((x, i) => {
        if (isTable(x)) walk(x, node[0], `${path}${field}[${i}].`, w);
      });
    else if (node !== 0 && !Array.isArray(node) && isTable(v)) walk(v, node, `${path}${field}.`, w);
  }
}

const unknownField = (u: NonNullable<Walk["unknown"]>, prefix = "") =>
  new FrpConfigError(`${prefix}json: unknown field ${JSON.stringify(u.key)}`, u.path);

/** frps.toml: LoadServerConfig with strict on. Throws FrpConfigError; a no-op before 0.55.0. */
export function checkServerConfig(t: TomlTable, version: string): void {
  const set = frpKeySet(version);
  if (!set) return;
  const w: Walk = {};
  walk(t, set.server, "", w);
  if (w.unknown) throw unknownField(w.unknown);
}

/** A proxy's or visitor's plugin sub-table: its error (without frp's outer wrapping), if any. */
function checkPlugin(
  p: TomlTable,
  path: string,
  types: Record<string, FrpKeyStruct>,
  what: "ClientPluginOptions" | "VisitorPluginOptions",
): FrpConfigError | undefined {
  const plugin = p.plugin;
  if (!isTable(plugin)) return undefined;
  const type = typeof plugin.type === "string" ? plugin.type : "";
  if (!type)
    return new FrpConfigError(what === "ClientPluginOptions" ? "plugin type is empty" : "visitor plugin type is empty");
  const keys = types[type];
  if (!keys)
    return new FrpConfigError(`unknown ${what === "ClientPluginOptions" ? "" : "visitor "}plugin type: ${type}`);
  const w: Walk = {};
  walk(plugin, keys, `${path}plugin.`, w);
  return w.unknown ? unknownField(w.unknown, `unmarshal ${what} error: `) : undefined;
}

/**
 * One [[proxies]] / [[visitors]] entry, as frp's decoder for it reports: `own` the first unknown
 * key of the entry itself, `plugin` the plugin sub-table's error.
 */
function checkEntry(
  p: TomlTable,
  path: string,
  set: FrpKeySet,
  kind: "proxy" | "visitor",
): { fatal?: FrpConfigError; own?: FrpConfigError; plugin?: FrpConfigError } {
  const type = typeof p.type === "string" ? p.type : "";
  const keys = (kind === "proxy" ? set.proxies : set.visitors)[type];
  if (!keys) return { fatal: new FrpConfigError(`unknown ${kind} type: ${type}`, `${path}type`) };
  const w: Walk = {};
  walk(p, keys, path, w, ["plugin"]);
  const what = kind === "proxy" ? "ProxyConfig" : "VisitorConfig";
  return {
    own: w.unknown ? unknownField(w.unknown, `unmarshal ${what} error: `) : undefined,
    plugin:
      keys.plugin === undefined
        ? undefined
        : checkPlugin(
            p,
            path,
            kind === "proxy" ? set.plugins : set.visitorPlugins,
            kind === "proxy" ? "ClientPluginOptions" : "VisitorPluginOptions",
          ),
  };
}

/** frpc.toml: LoadClientConfig with strict on. Throws FrpConfigError; a no-op before 0.55.0. */
export function checkClientConfig(t: TomlTable, version: string): void {
  const set = frpKeySet(version);
  if (!set) return;
  const root: FrpKeyStruct = { ...set.clientCommon, proxies: 0, visitors: 0 };
  const w: Walk = {};
  walk(t, root, "", w, ["proxies", "visitors"]);
  const entries = (["proxies", "visitors"] as const).flatMap((list) =>
    (Array.isArray(t[list]) ? (t[list] as TomlValue[]) : []).map((p, i) => ({
      list,
      i,
      p: isTable(p) ? p : {},
    })),
  );
  if (atLeast(version, "0.70.0")) {
    // DecodeClientConfigJSON: the common part first (entries kept raw), then each entry, then its plugin.
    if (w.unknown) throw unknownField(w.unknown);
    for (const { list, i, p } of entries) {
      const kind = list === "proxies" ? "proxy" : "visitor";
      const e = checkEntry(p, `${list}[${i}].`, set, kind);
      const err = e.fatal ?? e.own ?? (e.plugin && wrap(e.plugin, `unmarshal ${kind} plugin error: `));
      if (err) throw wrap(err, `decode ${kind} at index ${i}: `);
    }
    return;
  }
  // 0.55–0.69: one decode; an entry's UnmarshalJSON error aborts it (and its plugin's aborts the
  // entry's decode), while unknown keys are only remembered.
  for (const { list, i, p } of entries) {
    const e = checkEntry(p, `${list}[${i}].`, set, list === "proxies" ? "proxy" : "visitor");
    const err =
      e.fatal ??
      (e.plugin && wrap(e.plugin, `unmarshal ${list === "proxies" ? "ProxyConfig" : "VisitorConfig"} error: `)) ??
      e.own;
    if (err) throw err;
  }
  if (w.unknown) throw unknownField(w.unknown);
}

const wrap = (e: FrpConfigError, prefix: string) => new FrpConfigError(`${prefix}${e.message}`, e.path);
