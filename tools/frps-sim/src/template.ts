import { atLeast, FrpConfigError } from "./strict-config";

/*
 * frpc renders its config file as a Go text/template before parsing it (frp ≥ 0.52). The range
 * helpers `parseNumberRangePair` and `parseNumberRange` (frp #4073) exist since 0.56.0: older frpc
 * fails on a file that calls them ('function "…" not defined'). The simulator renders the forms
 * frp documents for port ranges — `{{- range $_, $v := parseNumberRangePair "A" "B" }}` … `{{ $v.First }}`
 * / `{{ $v.Second }}` … `{{- end }}` and `parseNumberRange "A"` with `{{ $v }}` — and refuses any
 * other action rather than guess what Go would make of it.
 */

const RANGE_FUNCS = ["parseNumberRangePair", "parseNumberRange"];

/** frp's util.ParseRangeNumbers: "1000-2000,2001" → every number, in order. */
function rangeNumbers(s: string): number[] {
  const out: number[] = [];
  for (const part of s.trim().split(",")) {
    const ends = part.split("-").map((x) => x.trim());
    const nums = ends.map((x) => (/^-?\d+$/.test(x) ? Number(x) : Number.NaN));
    if (ends.length > 2 || nums.some(Number.isNaN) || (nums.length === 2 && nums[1] < nums[0]))
      throw new FrpConfigError("range number is invalid");
    for (let n = nums[0]; n <= nums[nums.length - 1]; n++) out.push(n);
  }
  return out;
}

interface Token {
  text: string;
  action: boolean;
}

/** Literal text and actions, with `{{-` / `-}}` trimming the whitespace beside them as Go does. */
function tokens(src: string): Token[] {
  const out: Token[] = [];
  const re = /\{\{(- )?([\s\S]*?)( -)?\}\}/g;
  let at = 0;
  let trimNext = false;
  for (let m = re.exec(src); m; m = re.exec(src)) {
    let lit = src.slice(at, m.index);
    if (trimNext) lit = lit.replace(/^\s+/, "");
    if (m[1]) lit = lit.replace(/\s+$/, "");
    out.push({ text: lit, action: false }, { text: m[2].trim(), action: true });
    trimNext = !!m[3];
    at = m.index + m[0].length;
  }
  out.push({ text: trimNext ? src.slice(at).replace(/^\s+/, "") : src.slice(at), action: false });
  return out;
}

/** The file as frpc `version` renders it; FrpConfigError where frpc would fail (or the simulator does not follow). */
export function renderFrpcTemplate(src: string, version: string): string {
  if (!src.includes("{{")) return src;
  const toks = tokens(src);
  let i = 0;
  const block = (vars: Record<string, string>, inRange: boolean): string => {
    let out = "";
    while (i < toks.length) {
      const t = toks[i++];
      if (!t.action) {
        out += t.text;
        continue;
      }
      if (t.text === "end") {
        if (!inRange) throw new FrpConfigError("template: frp: unexpected {{end}}");
        return out;
      }
      const range = /^range\s+\$\w+\s*,\s*\$(\w+)\s*:=\s*(\w+)((?:\s+"[^"]*")+)$/.exec(t.text);
      if (range) {
        const [, name, fn, rawArgs] = range;
        if (!RANGE_FUNCS.includes(fn)) throw new FrpConfigError(`template: frp: function "${fn}" not defined`);
        if (!atLeast(version, "0.56.0")) throw new FrpConfigError(`template: frp: function "${fn}" not defined`);
        const args = [...rawArgs.matchAll(/"([^"]*)"/g)].map((a) => a[1]);
        const items: Record<string, string>[] =
          fn === "parseNumberRangePair"
            ? (() => {
                const [a, b] = [rangeNumbers(args[0] ?? ""), rangeNumbers(args[1] ?? "")];
                if (a.length !== b.length) throw new FrpConfigError("first and second range numbers are not in pairs");
                return a.map((first, k) => ({ [`${name}.First`]: String(first), [`${name}.Second`]: String(b[k]) }));
              })()
            : rangeNumbers(args[0] ?? "").map((n) => ({ [name]: String(n) }));
        const start = i;
        let body = "";
        if (!items.length) block({}, true);
        for (const item of items) {
          i = start;
          body += block({ ...vars, ...item }, true);
        }
        out += body;
        continue;
      }
      const v = /^\$(\w+(?:\.\w+)?)$/.exec(t.text);
      if (v && vars[v[1]] !== undefined) {
        out += vars[v[1]];
        continue;
      }
      throw new FrpConfigError(`template action not simulated: {{${t.text}}}`);
    }
    if (inRange) throw new FrpConfigError("template: frp: unexpected EOF");
    return out;
  };
  return block({}, false);
}
