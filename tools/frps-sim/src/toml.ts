/**
 * A small TOML reader covering what frp configuration files use: comments, bare/quoted/dotted
 * keys, basic and literal strings (single and multi-line), integers, floats, booleans, arrays
 * (multi-line, trailing commas), inline tables, [tables] and [[arrays of tables]]. Dates are not
 * supported (frp has none). Throws TomlError with the line number on anything else.
 */

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

/** A document the reader cannot accept, with its line. */
export class TomlError extends Error {
  constructor(message: string, line: number) {
    super(`TOML line ${line}: ${message}`);
    this.name = "TomlError";
  }
}

const BARE = /[A-Za-z0-9_-]/;

class Parser {
  private i = 0;
  /** tables defined by a header or dotted keys: redefinition is an error */
  private readonly defined = new Set<TomlTable>();

  constructor(private readonly s: string) {}

  private get line(): number {
    return this.s.slice(0, this.i).split("\n").length;
  }

  private fail(msg: string): never {
    throw new TomlError(msg, this.line);
  }

  private peek(n = 0): string {
    return this.s[this.i + n] ?? "";
  }

  /** Skips spaces, tabs and, when `newlines`, line breaks and comments. */
  private skipBlank(newlines: boolean): void {
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t") this.i++;
      else if (c === "#") while (this.i < this.s.length && this.peek() !== "\n") this.i++;
      else if (newlines && (c === "\n" || c === "\r")) this.i++;
      else return;
    }
  }

  private endOfLine(): void {
    this.skipBlank(false);
    const c = this.peek();
    if (c === "\r" && this.peek(1) === "\n") this.i += 2;
    else if (c === "\n") this.i++;
    else if (this.i < this.s.length) this.fail(`unexpected ${JSON.stringify(c)} after value`);
  }

  parse(): TomlTable {
    const root: TomlTable = {};
    let current = root;
    for (;;) {
      this.skipBlank(true);
      if (this.i >= this.s.length) return root;
      if (this.peek() === "[") {
        const array = this.peek(1) === "[";
        this.i += array ? 2 : 1;
        this.skipBlank(false);
        const path = this.key();
        this.skipBlank(false);
        if (this.s.slice(this.i, this.i + (array ? 2 : 1)) !== (array ? "]]" : "]")) this.fail("unclosed table header");
        this.i += array ? 2 : 1;
        this.endOfLine();
        current = array ? this.arrayTable(root, path) : this.table(root, path);
        continue;
      }
      const path = this.key();
      this.skipBlank(false);
      if (this.peek() !== "=") this.fail(`expected "=" after key ${path.join(".")}`);
      this.i++;
      this.skipBlank(false);
      const value = this.value();
      this.assign(current, path, value);
      this.endOfLine();
    }
  }

  private table(root: TomlTable, path: string[]): TomlTable {
    let t = root;
    for (const [n, k] of path.entries()) {
      const v = t[k];
      if (v === undefined) t = t[k] = {};
      else if (Array.isArray(v)) t = v[v.length - 1] as TomlTable;
      else if (typeof v === "object") t = v;
      else this.fail(`key ${k} is not a table`);
      if (n === path.length - 1) {
        if (this.defined.has(t)) this.fail(`table [${path.join(".")}] defined twice`);
        this.defined.add(t);
      }
    }
    return t;
  }

  private arrayTable(root: TomlTable, path: string[]): TomlTable {
    const parent = path.length > 1 ? this.table(root, path.slice(0, -1)) : root;
    this.defined.delete(parent);
    const k = path[path.length - 1];
    const existing = parent[k];
    if (existing !== undefined && !Array.isArray(existing)) this.fail(`key ${k} is not an array of tables`);
    const list = (existing as TomlValue[] | undefined) ?? [];
    parent[k] = list;
    const t: TomlTable = {};
    list.push(t);
    return t;
  }

  private assign(t: TomlTable, path: string[], value: TomlValue): void {
    let cur = t;
    for (const k of path.slice(0, -1)) {
      const v = cur[k];
      if (v === undefined) cur = cur[k] = {};
      else if (typeof v === "object" && !Array.isArray(v)) cur = v;
      else this.fail(`key ${k} is not a table`);
    }
    const last = path[path.length - 1];
    if (last in cur) this.fail(`key ${path.join(".")} defined twice`);
    cur[last] = value;
  }

  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipBlank(false);
      const c = this.peek();
      if (c === '"') parts.push(this.basicString());
      else if (c === "'") parts.push(this.literalString());
      else {
        const start = this.i;
        while (BARE.test(this.peek())) this.i++;
        if (start === this.i) this.fail("expected a key");
        parts.push(this.s.slice(start, this.i));
      }
      this.skipBlank(false);
      if (this.peek() !== ".") return parts;
      this.i++;
    }
  }

  private value(): TomlValue {
    const c = this.peek();
    if (c === '"') return this.s.startsWith('"""', this.i) ? this.multiBasic() : this.basicString();
    if (c === "'") return this.s.startsWith("'''", this.i) ? this.multiLiteral() : this.literalString();
    if (c === "[") return this.array();
    if (c === "{") return this.inlineTable();
    if (this.s.startsWith("true", this.i)) {
      this.i += 4;
      return true;
    }
    if (this.s.startsWith("false", this.i)) {
      this.i += 5;
      return false;
    }
    return this.number();
  }

  private number(): number {
    const m = /^[+-]?(?:0x[0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+|inf|nan|[0-9_]+(?:\.[0-9_]+)?(?:[eE][+-]?[0-9_]+)?)/.exec(
      this.s.slice(this.i),
    );
    if (!m) this.fail(`unsupported value starting with ${JSON.stringify(this.s.slice(this.i, this.i + 10))}`);
    this.i += m[0].length;
    const text = m[0].replace(/_/g, "");
    const sign = text.startsWith("-") ? -1 : 1;
    const body = text.replace(/^[+-]/, "");
    if (body === "inf") return sign * Number.POSITIVE_INFINITY;
    if (body === "nan") return Number.NaN;
    if (/^0[xob]/.test(body)) return sign * Number.parseInt(body.slice(2), { x: 16, o: 8, b: 2 }[body[1]] as number);
    return Number(text);
  }

  private escape(): string {
    const c = this.peek();
    this.i++;
    const simple: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };
    if (c in simple) return simple[c];
    if (c === "u" || c === "U") {
      const len = c === "u" ? 4 : 8;
      const hex = this.s.slice(this.i, this.i + len);
      if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) this.fail("bad unicode escape");
      this.i += len;
      return String.fromCodePoint(Number.parseInt(hex, 16));
    }
    return this.fail(`bad escape \\${c}`);
  }

  private basicString(): string {
    this.i++;
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c === "" || c === "\n") this.fail("unterminated string");
      this.i++;
      if (c === '"') return out;
      out += c === "\\" ? this.escape() : c;
    }
  }

  private literalString(): string {
    this.i++;
    const end = this.s.indexOf("'", this.i);
    const nl = this.s.indexOf("\n", this.i);
    if (end < 0 || (nl >= 0 && nl < end)) this.fail("unterminated string");
    const out = this.s.slice(this.i, end);
    this.i = end + 1;
    return out;
  }

  private multiBasic(): string {
    this.i += 3;
    if (this.peek() === "\n") this.i++;
    let out = "";
    for (;;) {
      if (this.i >= this.s.length) this.fail("unterminated string");
      if (this.s.startsWith('"""', this.i)) {
        this.i += 3;
        return out;
      }
      const c = this.peek();
      this.i++;
      if (c !== "\\") out += c;
      else if (this.peek() === "\n" || this.peek() === " " || this.peek() === "\r") {
        while (/\s/.test(this.peek())) this.i++;
      } else out += this.escape();
    }
  }

  private multiLiteral(): string {
    this.i += 3;
    if (this.peek() === "\n") this.i++;
    const end = this.s.indexOf("'''", this.i);
    if (end < 0) this.fail("unterminated string");
    const out = this.s.slice(this.i, end);
    this.i = end + 3;
    return out;
  }

  private array(): TomlValue[] {
    this.i++;
    const out: TomlValue[] = [];
    for (;;) {
      this.skipBlank(true);
      if (this.peek() === "]") {
        this.i++;
        return out;
      }
      out.push(this.value());
      this.skipBlank(true);
      if (this.peek() === ",") this.i++;
      else if (this.peek() !== "]") this.fail('expected "," or "]" in array');
    }
  }

  private inlineTable(): TomlTable {
    this.i++;
    const t: TomlTable = {};
    this.skipBlank(false);
    if (this.peek() === "}") {
      this.i++;
      return t;
    }
    for (;;) {
      const path = this.key();
      this.skipBlank(false);
      if (this.peek() !== "=") this.fail('expected "=" in inline table');
      this.i++;
      this.skipBlank(false);
      this.assign(t, path, this.value());
      this.skipBlank(false);
      if (this.peek() === ",") {
        this.i++;
        continue;
      }
      if (this.peek() === "}") {
        this.i++;
        return t;
      }
      this.fail('expected "," or "}" in inline table');
    }
  }
}

/** Parses a TOML document into plain objects. */
export function parseToml(text: string): TomlTable {
  return new Parser(text.replace(/^\uFEFF/, "")).parse();
}
