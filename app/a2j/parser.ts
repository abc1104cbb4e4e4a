/**
 * Recursive-descent parser for A2J's script language. One statement per line:
 * SET target TO|= expr · GOTO "page" · IF expr / ELSE IF expr / ELSE / END IF · TRACE expr · DELTAVARS.
 * Expression precedence follows the JavaScript the original translates to:
 * OR < AND < (= is <>) < (< > <= >=) < (+ -) < (* /) < unary (NOT -).
 */
import { lex, type Token } from "./lexer";

export type IndexRef = { kind: "num"; value: number } | { kind: "var"; name: string };

export interface VarRef {
  name: string;
  index?: IndexRef;
}

export type Expr =
  | { k: "num"; v: number }
  | { k: "str"; v: string }
  | { k: "bool"; v: boolean }
  | { k: "null" }
  | { k: "today" }
  | { k: "datems"; v: number }
  | { k: "var"; ref: VarRef }
  | { k: "call"; name: string; args: Expr[] }
  | { k: "un"; op: "not" | "neg" | "pos"; e: Expr }
  | { k: "bin"; op: BinOp; l: Expr; r: Expr };

export type BinOp = "or" | "and" | "eq" | "ne" | "lt" | "gt" | "le" | "ge" | "add" | "sub" | "mul" | "div";

export type Stmt =
  | { k: "set"; target: VarRef; e: Expr; line: number }
  | { k: "goto"; page: string; line: number }
  | { k: "if"; branches: { cond: Expr; body: Stmt[] }[]; elseBody: Stmt[] | null; line: number }
  | { k: "trace"; e: Expr; line: number };

export interface ScriptError {
  line: number;
  message: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: ScriptError };

class ParseError {
  constructor(
    public line: number,
    public message: string,
  ) {}
}

const KEYWORDS = new Set(["and", "or", "not", "is", "true", "false", "null", "today", "to", "set", "if", "else", "end", "goto"]);

function describe(t: Token): string {
  switch (t.kind) {
    case "eof":
      return "end of script";
    case "newline":
      return "end of line";
    case "string":
      return `"${t.text}"`;
    case "var":
      return `[${t.text}]`;
    default:
      return `"${t.text}"`;
  }
}

function indexRef(raw: string | undefined): IndexRef | undefined {
  if (raw === undefined) return undefined;
  if (/^\d+$/.test(raw)) return { kind: "num", value: Number(raw) };
  return { kind: "var", name: raw };
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(offset = 0): Token {
    return this.toks[Math.min(this.i + offset, this.toks.length - 1)] as Token;
  }
  private next(): Token {
    const t = this.peek();
    if (this.i < this.toks.length - 1) this.i++;
    return t;
  }
  private isKw(t: Token, kw: string): boolean {
    return t.kind === "ident" && t.index === undefined && t.text.toLowerCase() === kw;
  }
  private isOp(t: Token, op: string): boolean {
    return t.kind === "op" && t.text === op;
  }
  private fail(t: Token, msg: string): never {
    throw new ParseError(t.line, msg);
  }

  // ---------- statements ----------

  program(): Stmt[] {
    const body = this.block(() => false);
    const t = this.peek();
    if (t.kind !== "eof") this.fail(t, `${describe(t)} without a matching IF`);
    return body;
  }

  /** Parse statements until `stop` matches the first token of a line (or EOF). */
  private block(stop: () => boolean): Stmt[] {
    const out: Stmt[] = [];
    for (;;) {
      while (this.peek().kind === "newline") this.next();
      const t = this.peek();
      if (t.kind === "eof" || stop()) return out;
      if (this.isKw(t, "else") || this.isKw(t, "elseif") || this.isKw(t, "end") || this.isKw(t, "endif")) return out;
      const s = this.statement();
      if (s) out.push(s);
    }
  }

  private endOfLine(): void {
    const t = this.peek();
    if (t.kind === "newline") {
      this.next();
      return;
    }
    if (t.kind === "eof") return;
    this.fail(t, `unexpected ${describe(t)}`);
  }

  private statement(): Stmt | null {
    const t = this.next();
    if (t.kind !== "ident") this.fail(t, `unknown statement starting with ${describe(t)}`);
    const kw = t.index === undefined ? t.text.toLowerCase() : "";
    switch (kw) {
      case "set": {
        const target = this.target();
        const sep = this.peek();
        if (this.isKw(sep, "to") || this.isOp(sep, "=")) this.next();
        else this.fail(sep, `expected TO or = after SET [${target.name}]`);
        const e = this.expr();
        this.endOfLine();
        return { k: "set", target, e, line: t.line };
      }
      case "goto": {
        const p = this.next();
        if (p.kind !== "string") this.fail(p, 'GOTO needs a quoted page name, e.g. GOTO "Page"');
        this.endOfLine();
        return { k: "goto", page: p.text, line: t.line };
      }
      case "if":
        return this.ifStatement(t);
      case "trace": {
        const e = this.expr();
        this.endOfLine();
        return { k: "trace", e, line: t.line };
      }
      case "deltavars":
        this.endOfLine();
        return null;
      case "write":
        this.fail(t, "WRITE is not supported");
      // falls through (unreachable)
      default:
        return this.fail(t, `unknown statement "${t.text}"`);
    }
  }

  private target(): VarRef {
    const t = this.next();
    if (t.kind === "var" || (t.kind === "ident" && !KEYWORDS.has(t.text.toLowerCase()))) {
      const ref: VarRef = { name: t.text };
      const idx = indexRef(t.index);
      if (idx) ref.index = idx;
      return ref;
    }
    return this.fail(t, `expected a variable after SET, found ${describe(t)}`);
  }

  private optionalThen(): void {
    if (this.isKw(this.peek(), "then")) this.next();
  }

  private ifStatement(ifTok: Token): Stmt {
    const branches: { cond: Expr; body: Stmt[] }[] = [];
    let cond = this.expr();
    this.optionalThen();
    this.endOfLine();
    let body = this.block(() => false);
    branches.push({ cond, body });
    let elseBody: Stmt[] | null = null;
    for (;;) {
      const t = this.peek();
      if (t.kind === "eof") this.fail(ifTok, "IF without END IF");
      if (this.isKw(t, "endif")) {
        this.next();
        this.endOfLine();
        break;
      }
      if (this.isKw(t, "end")) {
        this.next();
        const f = this.next();
        if (!this.isKw(f, "if")) this.fail(f, 'expected "END IF"');
        this.endOfLine();
        break;
      }
      const isElseIf = this.isKw(t, "elseif") || (this.isKw(t, "else") && this.isKw(this.peek(1), "if"));
      if (isElseIf) {
        if (elseBody) this.fail(t, "ELSE IF after ELSE");
        this.next();
        if (this.isKw(t, "else")) this.next();
        cond = this.expr();
        this.optionalThen();
        this.endOfLine();
        body = this.block(() => false);
        branches.push({ cond, body });
        continue;
      }
      if (this.isKw(t, "else")) {
        if (elseBody) this.fail(t, "a second ELSE in the same IF");
        this.next();
        this.endOfLine();
        elseBody = this.block(() => false);
        continue;
      }
      this.fail(t, `unexpected ${describe(t)}`);
    }
    return { k: "if", branches, elseBody, line: ifTok.line };
  }

  // ---------- expressions ----------

  expr(): Expr {
    return this.or();
  }

  private or(): Expr {
    let l = this.and();
    while (this.isKw(this.peek(), "or")) {
      this.next();
      l = { k: "bin", op: "or", l, r: this.and() };
    }
    return l;
  }

  private and(): Expr {
    let l = this.eq();
    while (this.isKw(this.peek(), "and")) {
      this.next();
      l = { k: "bin", op: "and", l, r: this.eq() };
    }
    return l;
  }

  private eq(): Expr {
    let l = this.rel();
    for (;;) {
      const t = this.peek();
      let op: BinOp | null = null;
      if (this.isOp(t, "=") || this.isOp(t, "==") || this.isKw(t, "is")) op = "eq";
      else if (this.isOp(t, "<>") || this.isOp(t, "!=")) op = "ne";
      if (!op) return l;
      this.next();
      l = { k: "bin", op, l, r: this.rel() };
    }
  }

  private rel(): Expr {
    let l = this.additive();
    for (;;) {
      const t = this.peek();
      const op: BinOp | null =
        t.kind !== "op" ? null : t.text === "<" ? "lt" : t.text === ">" ? "gt" : t.text === "<=" ? "le" : t.text === ">=" ? "ge" : null;
      if (!op) return l;
      this.next();
      l = { k: "bin", op, l, r: this.additive() };
    }
  }

  private additive(): Expr {
    let l = this.multiplicative();
    for (;;) {
      const t = this.peek();
      if (this.isOp(t, "+") || this.isOp(t, "-")) {
        this.next();
        l = { k: "bin", op: t.text === "+" ? "add" : "sub", l, r: this.multiplicative() };
      } else return l;
    }
  }

  private multiplicative(): Expr {
    let l = this.unary();
    for (;;) {
      const t = this.peek();
      if (this.isOp(t, "*") || this.isOp(t, "/")) {
        this.next();
        l = { k: "bin", op: t.text === "*" ? "mul" : "div", l, r: this.unary() };
      } else return l;
    }
  }

  private depth = 0;

  private unary(): Expr {
    const t = this.peek();
    if (++this.depth > 200) this.fail(t, "expression nested too deeply");
    try {
      if (this.isKw(t, "not")) {
        this.next();
        return { k: "un", op: "not", e: this.unary() };
      }
      if (this.isOp(t, "-")) {
        this.next();
        return { k: "un", op: "neg", e: this.unary() };
      }
      if (this.isOp(t, "+")) {
        this.next();
        return { k: "un", op: "pos", e: this.unary() };
      }
      return this.primary();
    } finally {
      this.depth--;
    }
  }

  private primary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case "number":
        return { k: "num", v: t.num ?? 0 };
      case "string":
        return { k: "str", v: t.text };
      case "datelit": {
        const m = /^#(\d{1,2})\/(\d{1,2})\/(\d{2,4})#$/.exec(t.text);
        const y = Number(m?.[3] ?? 0);
        return { k: "datems", v: Date.UTC(y < 100 ? 1900 + y : y, Number(m?.[1] ?? 1) - 1, Number(m?.[2] ?? 1)) };
      }
      case "var": {
        const ref: VarRef = { name: t.text };
        const idx = indexRef(t.index);
        if (idx) ref.index = idx;
        return { k: "var", ref };
      }
      case "ident": {
        const lower = t.text.toLowerCase();
        if (t.index === undefined) {
          if (lower === "true") return { k: "bool", v: true };
          if (lower === "false") return { k: "bool", v: false };
          if (lower === "null") return { k: "null" };
          if (lower === "today") return { k: "today" };
          if (this.isOp(this.peek(), "(")) {
            this.next();
            const args: Expr[] = [];
            if (!this.isOp(this.peek(), ")")) {
              for (;;) {
                args.push(this.expr());
                if (this.isOp(this.peek(), ",")) {
                  this.next();
                  continue;
                }
                break;
              }
            }
            const close = this.next();
            if (!this.isOp(close, ")")) this.fail(close, `expected ")" after arguments of ${t.text}, found ${describe(close)}`);
            return { k: "call", name: t.text, args };
          }
          if (KEYWORDS.has(lower)) this.fail(t, `unexpected ${describe(t)}`);
        }
        const ref: VarRef = { name: t.text };
        const idx = indexRef(t.index);
        if (idx) ref.index = idx;
        return { k: "var", ref };
      }
      case "op":
        if (t.text === "(") {
          const e = this.expr();
          const close = this.next();
          if (!this.isOp(close, ")")) this.fail(close, `expected ")", found ${describe(close)}`);
          return e;
        }
        return this.fail(t, `unexpected ${describe(t)}`);
      default:
        return this.fail(t, `expected a value, found ${describe(t)}`);
    }
  }

  atEnd(): boolean {
    let j = this.i;
    while (this.toks[j]?.kind === "newline") j++;
    return this.toks[j]?.kind === "eof";
  }
}

function wrap<T>(f: () => T): ParseResult<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: { line: e.line, message: e.message } };
    return { ok: false, error: { line: 0, message: `internal parser error: ${String(e)}` } };
  }
}

/** Parse a whole script (codeBefore/codeAfter). A compile error is returned with its line number. */
export function parseScript(code: string): ParseResult<Stmt[]> {
  const lx = lex(code);
  if (!lx.ok) return { ok: false, error: lx.error };
  return wrap(() => new Parser(lx.tokens).program());
}

/** Parse a single expression (used by `%%macros%%`). */
export function parseExpression(code: string): ParseResult<Expr> {
  const lx = lex(code);
  if (!lx.ok) return { ok: false, error: lx.error };
  const p = new Parser(lx.tokens);
  return wrap(() => {
    const e = p.expr();
    if (!p.atEnd()) throw new ParseError(1, "unexpected text after the expression");
    return e;
  });
}
