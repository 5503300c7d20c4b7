import fs from "node:fs";
import path from "node:path";
import { AuditActionLabel } from "@burrow/contract";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * Every action code the server writes to the audit log has a Chinese name in the contract
 * (AuditActionLabel), and every name there belongs to a code still written. The codes are read
 * from the server's source: each audit() call's `action`, through the type checker where it is
 * built (`invoice.${body.action}` over the body's enum) or passed in (a parameter's default and
 * the arguments of every call of its function).
 */
const SRC = path.resolve(import.meta.dirname, "../..");
const AUDIT_FILE = path.join(SRC, "modules/audit/audit.ts");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

interface Found {
  codes: Set<string>;
  unresolved: string[];
}

function writtenCodes(): Found {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(SRC, "../tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("no tsconfig");
  const program = ts.createProgram(sources(SRC), { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const files = program.getSourceFiles().filter((f) => f.fileName.startsWith(SRC) && !f.isDeclarationFile);
  const where = (n: ts.Node) => {
    const f = n.getSourceFile();
    return `${path.relative(SRC, f.fileName)}:${f.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  };
  const resolved = (s: ts.Symbol | undefined) =>
    s && s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
  const calls: ts.CallExpression[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) calls.push(n);
    ts.forEachChild(n, visit);
  };
  for (const f of files) visit(f);
  const callsOf = (fn: ts.Symbol) => calls.filter((c) => resolved(checker.getSymbolAtLocation(c.expression)) === fn);

  /** The string values an expression can take, or null when the source does not tell. */
  const values = (e: ts.Expression, seen = new Set<ts.Node>()): string[] | null => {
    if (seen.has(e)) return [];
    seen.add(e);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e)) return values(e.expression, seen);
    if (ts.isConditionalExpression(e)) {
      const a = values(e.whenTrue, seen);
      const b = values(e.whenFalse, seen);
      return a && b ? [...a, ...b] : null;
    }
    if (ts.isTemplateExpression(e)) {
      let out = [e.head.text];
      for (const span of e.templateSpans) {
        const v = values(span.expression, seen);
        if (!v) return null;
        out = out.flatMap((p) => v.map((x) => p + x + span.literal.text));
      }
      return out;
    }
    const type = checker.getTypeAtLocation(e);
    const parts = type.isUnion() ? type.types : [type];
    if (parts.every((p) => p.isStringLiteral())) return parts.map((p) => (p as ts.StringLiteralType).value);
    // A parameter: its default and what every caller passes.
    if (ts.isIdentifier(e)) {
      const symbol = ts.isShorthandPropertyAssignment(e.parent)
        ? checker.getShorthandAssignmentValueSymbol(e.parent)
        : checker.getSymbolAtLocation(e);
      const decl = symbol?.valueDeclaration;
      if (decl && ts.isParameter(decl) && ts.isFunctionLike(decl.parent)) {
        const fn = decl.parent;
        const index = fn.parameters.indexOf(decl);
        const fnSymbol = fn.name ? resolved(checker.getSymbolAtLocation(fn.name)) : undefined;
        if (!fnSymbol) return null;
        const out: string[] = [];
        if (decl.initializer) {
          const v = values(decl.initializer, seen);
          if (!v) return null;
          out.push(...v);
        }
        for (const call of callsOf(fnSymbol)) {
          const arg = call.arguments[index];
          if (!arg) {
            if (!decl.initializer) return null;
            continue;
          }
          const v = values(arg, seen);
          if (!v) return null;
          out.push(...v);
        }
        return out;
      }
    }
    return null;
  };

  const auditFn = program
    .getSourceFile(AUDIT_FILE)
    ?.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === "audit");
  if (!auditFn?.name) throw new Error("audit() not found");
  const auditSymbol = checker.getSymbolAtLocation(auditFn.name);
  if (!auditSymbol) throw new Error("audit() has no symbol");

  const found: Found = { codes: new Set(), unresolved: [] };
  for (const call of callsOf(auditSymbol)) {
    const entry = call.arguments[1];
    const prop =
      entry && ts.isObjectLiteralExpression(entry)
        ? entry.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === "action")
        : undefined;
    const expr = !prop
      ? undefined
      : ts.isPropertyAssignment(prop)
        ? prop.initializer
        : ts.isShorthandPropertyAssignment(prop)
          ? prop.name
          : undefined;
    const v = expr ? values(expr) : null;
    if (!v) found.unresolved.push(where(call));
    else for (const c of v) found.codes.add(c);
  }
  return found;
}

describe("audit action names", () => {
  const found = writtenCodes();

  it("reads the codes from the source, including built and passed-in ones", () => {
    expect(found.unresolved).toEqual([]);
    // one literal, one built from a body's enum, one passed as an argument: the reader follows each
    for (const c of ["plan.create", "aff.withdraw.reject", "invoice.return", "ticket.unlock", "ticket.close"]) {
      expect(found.codes).toContain(c);
    }
  });

  it("names every action the server writes", () => {
    const unnamed = [...found.codes].filter((c) => !(c in AuditActionLabel));
    expect(unnamed).toEqual([]);
  });

  it("names no action the server no longer writes", () => {
    const stale = Object.keys(AuditActionLabel).filter((c) => !found.codes.has(c));
    expect(stale).toEqual([]);
  });
});
