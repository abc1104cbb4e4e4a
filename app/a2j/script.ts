/**
 * Evaluator for A2J scripts and expressions. Scripts mutate the answers they are given;
 * callers that need purity pass a copy (the page flow does).
 */
import { varGet, varSet } from "./answers";
import { callFunction } from "./functions";
import { parseExpression, parseScript, type Expr, type ScriptError, type Stmt, type VarRef } from "./parser";
import type { Answers } from "./types";
import { add, compare, looseEquals, toNumber, toStr, truthy, type Val } from "./values";

export type { ScriptError } from "./parser";

export interface EvalContext {
  answers: Answers;
  /** Today as days since 1970-01-01. */
  today: number;
  /**
   * When given, a GOTO to a page for which this returns false is a compile error (as in A2J: the whole
   * script is skipped and reported).
   */
  pageExists?: (name: string) => boolean;
}

export interface ScriptResult {
  /** Page named by a GOTO that ran (the script stopped there), else null. */
  goto: string | null;
  /** Compile error (the whole script was skipped) or runtime error (the script stopped). */
  errors: ScriptError[];
  /** Values of TRACE statements, in order. */
  traces: string[];
}

const MAX_CACHE = 2000;
const scriptCache = new Map<string, ReturnType<typeof parseScript>>();
const exprCache = new Map<string, ReturnType<typeof parseExpression>>();

function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const v = make();
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(key, v);
  return v;
}

/** Parse a script with a small memo (scripts are re-run on every visit). */
export function compileScript(code: string): ReturnType<typeof parseScript> {
  return cached(scriptCache, code, () => parseScript(code));
}

const gotoCache = new WeakMap<Stmt[], { page: string; line: number }[]>();

/** The GOTO statements of a compiled script (memoised per compiled script). */
function gotoTargets(stmts: Stmt[]): { page: string; line: number }[] {
  const hit = gotoCache.get(stmts);
  if (hit) return hit;
  const out: { page: string; line: number }[] = [];
  const walk = (list: Stmt[]) => {
    for (const st of list) {
      if (st.k === "goto") out.push({ page: st.page, line: st.line });
      else if (st.k === "if") {
        for (const b of st.branches) walk(b.body);
        if (st.elseBody) walk(st.elseBody);
      }
    }
  };
  walk(stmts);
  gotoCache.set(stmts, out);
  return out;
}

/** Parse an expression with a small memo. */
export function compileExpression(code: string): ReturnType<typeof parseExpression> {
  return cached(exprCache, code, () => parseExpression(code));
}

class GotoSignal {
  constructor(public page: string) {}
}

function indexValue(ref: VarRef, ctx: EvalContext): number | undefined {
  if (!ref.index) return undefined;
  if (ref.index.kind === "num") return ref.index.value;
  const v = toNumber(varGet(ctx.answers, ref.index.name));
  return Number.isFinite(v) ? Math.trunc(v) : NaN;
}

/** Evaluate an expression AST. */
export function evaluate(e: Expr, ctx: EvalContext): Val {
  switch (e.k) {
    case "num":
    case "str":
    case "bool":
      return e.v;
    case "datems":
      return e.v;
    case "null":
      return null;
    case "today":
      return ctx.today;
    case "var": {
      const idx = indexValue(e.ref, ctx);
      if (idx !== undefined && !Number.isInteger(idx)) return null;
      return varGet(ctx.answers, e.ref.name, idx);
    }
    case "call":
      return callFunction(
        e.name,
        e.args.map((a) => evaluate(a, ctx)),
        ctx,
      );
    case "un": {
      const v = evaluate(e.e, ctx);
      if (e.op === "not") return !truthy(v);
      if (e.op === "neg") return -toNumber(v);
      return toNumber(v);
    }
    case "bin": {
      if (e.op === "and") {
        const l = evaluate(e.l, ctx);
        return truthy(l) ? evaluate(e.r, ctx) : l;
      }
      if (e.op === "or") {
        const l = evaluate(e.l, ctx);
        return truthy(l) ? l : evaluate(e.r, ctx);
      }
      const l = evaluate(e.l, ctx);
      const r = evaluate(e.r, ctx);
      switch (e.op) {
        case "eq":
          return looseEquals(l, r);
        case "ne":
          return !looseEquals(l, r);
        case "lt":
          return compare(l, r) === -1;
        case "gt":
          return compare(l, r) === 1;
        case "le": {
          const c = compare(l, r);
          return c === -1 || c === 0;
        }
        case "ge": {
          const c = compare(l, r);
          return c === 1 || c === 0;
        }
        case "add":
          return add(l, r);
        case "sub":
          return toNumber(l) - toNumber(r);
        case "mul":
          return toNumber(l) * toNumber(r);
        case "div":
          return toNumber(l) / toNumber(r);
      }
    }
  }
}

function execBlock(stmts: Stmt[], ctx: EvalContext, traces: string[]): void {
  for (const s of stmts) {
    switch (s.k) {
      case "set": {
        const v = evaluate(s.e, ctx);
        const idx = indexValue(s.target, ctx);
        if (idx !== undefined && (!Number.isInteger(idx) || idx < 1)) {
          throw new RuntimeError(s.line, `bad index for [${s.target.name}]`);
        }
        varSet(ctx.answers, s.target.name, v, idx);
        break;
      }
      case "goto":
        throw new GotoSignal(s.page);
      case "trace":
        traces.push(toStr(evaluate(s.e, ctx)));
        break;
      case "if": {
        let done = false;
        for (const b of s.branches) {
          if (truthy(evaluate(b.cond, ctx))) {
            execBlock(b.body, ctx, traces);
            done = true;
            break;
          }
        }
        if (!done && s.elseBody) execBlock(s.elseBody, ctx, traces);
        break;
      }
    }
  }
}

class RuntimeError {
  constructor(
    public line: number,
    public message: string,
  ) {}
}

/**
 * Run a script (codeBefore/codeAfter) against `ctx.answers` (mutated). A script that does not compile is
 * skipped whole and its error returned; a GOTO stops the script and is returned in `goto`. Never throws.
 */
export function runScript(code: string, ctx: EvalContext): ScriptResult {
  const traces: string[] = [];
  if (code.trim() === "") return { goto: null, errors: [], traces };
  const compiled = compileScript(code);
  if (!compiled.ok) return { goto: null, errors: [compiled.error], traces };
  if (ctx.pageExists) {
    const missing = gotoTargets(compiled.value).find((g) => !ctx.pageExists?.(g.page));
    if (missing) return { goto: null, errors: [{ line: missing.line, message: `Page "${missing.page}" does not exist.` }], traces };
  }
  try {
    execBlock(compiled.value, ctx, traces);
    return { goto: null, errors: [], traces };
  } catch (e) {
    if (e instanceof GotoSignal) return { goto: e.page, errors: [], traces };
    if (e instanceof RuntimeError) return { goto: null, errors: [{ line: e.line, message: e.message }], traces };
    return { goto: null, errors: [{ line: 0, message: `runtime error: ${String(e)}` }], traces };
  }
}

/** Evaluate a single expression string. Returns the value or a parse error. Never throws. */
export function evalExpression(code: string, ctx: EvalContext): { ok: true; value: Val } | { ok: false; error: ScriptError } {
  const compiled = compileExpression(code);
  if (!compiled.ok) return compiled;
  try {
    return { ok: true, value: evaluate(compiled.value, ctx) };
  } catch (e) {
    return { ok: false, error: { line: 0, message: `runtime error: ${String(e)}` } };
  }
}
