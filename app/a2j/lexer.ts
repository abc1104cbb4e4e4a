/**
 * Lexer for A2J's script language ("CAJA script"). Input is the stored HTML form of a script:
 * lines separated by `<BR/>` (or newlines), `&lt;`/`&gt;` escaped. `%%` markers outside strings are ignored.
 */

export type TokenKind =
  | "newline"
  | "string"
  | "number"
  | "ident" // bare word, possibly with #index
  | "var" // [bracketed name], possibly with #index
  | "datelit" // deprecated #m/d/y# literal
  | "op"
  | "eof";

export interface Token {
  kind: TokenKind;
  /** Source text (for op: the operator; for string: the unquoted value; for var/ident: the name). */
  text: string;
  /** Index suffix after `#`, if any (var/ident only). */
  index?: string;
  /** For numbers: the numeric value. */
  num?: number;
  line: number;
}

export interface LexError {
  line: number;
  message: string;
}

const ENTITY_MAP: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&amp;": "&",
  "&quot;": '"',
  "&apos;": "'",
  "&#39;": "'",
  "&nbsp;": " ",
  "&#160;": " ",
};

/** Turn stored script HTML into plain lines (1-based line numbers are indexes + 1). */
export function scriptLines(code: string): string[] {
  const lines = code.split(/<br\s*\/?>|\r\n|\r|\n/i);
  return lines.map((l) =>
    l
      .replace(/&(lt|gt|amp|quot|apos|nbsp|#39|#160);/gi, (m) => ENTITY_MAP[m.toLowerCase()] ?? m)
      .replace(/\u00a0/g, " "),
  );
}

const OPERATORS = ["<>", "<=", ">=", "==", "!=", "=", "<", ">", "+", "-", "*", "/", "(", ")", ","];

function isIdentStart(c: string): boolean {
  return (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || c === "_";
}
function isIdentChar(c: string): boolean {
  return isIdentStart(c) || (c >= "0" && c <= "9");
}
function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/**
 * Tokenise a script. A quoted string may span lines (the line break is kept as "\n").
 * Returns tokens ending with `eof`, or the first lexical error.
 */
export function lex(code: string): { ok: true; tokens: Token[] } | { ok: false; error: LexError } {
  const src = scriptLines(code).join("\n");
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i] ?? "";
    if (c === "\n") {
      tokens.push({ kind: "newline", text: "\n", line });
      line++;
      i++;
      continue;
    }
    if (c === " " || c === "\t" || c === "\f" || c === "\v") {
      i++;
      continue;
    }
    // A2J 4 allowed %%…%% around expressions in code; the markers are ignored outside strings.
    if (c === "%" && src[i + 1] === "%") {
      i += 2;
      continue;
    }
    // Comments: "//" to end of line, except the "//" of "://".
    if (c === "/" && src[i + 1] === "/" && src[i - 1] !== ":") {
      while (i < n && src[i] !== "\n") i++;
      continue;
    }
    if (c === '"' || c === "\u201c" || c === "\u201d") {
      const startLine = line;
      let j = i + 1;
      let s = "";
      while (j < n && src[j] !== '"' && src[j] !== "\u201d" && src[j] !== "\u201c") {
        if (src[j] === "\n") line++;
        s += src[j];
        j++;
      }
      if (j >= n) return { ok: false, error: { line: startLine, message: "unterminated string" } };
      tokens.push({ kind: "string", text: s, line: startLine });
      i = j + 1;
      continue;
    }
    if (c === "[") {
      const j = src.indexOf("]", i + 1);
      const nl = src.indexOf("\n", i + 1);
      if (j < 0 || (nl >= 0 && nl < j)) return { ok: false, error: { line, message: 'missing "]" after variable name' } };
      const inner = src.slice(i + 1, j);
      const hash = inner.lastIndexOf("#");
      const name = (hash >= 0 ? inner.slice(0, hash) : inner).trim();
      if (name === "") return { ok: false, error: { line, message: "empty variable name" } };
      const tok: Token = { kind: "var", text: name, line };
      if (hash >= 0) {
        const idx = inner.slice(hash + 1).trim();
        if (idx === "") return { ok: false, error: { line, message: `missing index after "#" in [${inner}]` } };
        tok.index = idx;
      }
      tokens.push(tok);
      i = j + 1;
      continue;
    }
    if (c === "#" ) {
      // Deprecated date literal #m/d/yyyy#
      const m = /^#(\d{1,2})\/(\d{1,2})\/(\d{2,4})#/.exec(src.slice(i, i + 14));
      if (m) {
        tokens.push({ kind: "datelit", text: m[0], line });
        i += m[0].length;
        continue;
      }
      return { ok: false, error: { line, message: 'unexpected "#"' } };
    }
    if (isDigit(c) || (c === "$" && isDigit(src[i + 1])) || (c === "." && isDigit(src[i + 1]))) {
      let j = c === "$" ? i + 1 : i;
      let digits = "";
      while (isDigit(src[j])) digits += src[j++];
      // Thousands separators: ",ddd" not followed by another digit.
      while (
        src[j] === "," &&
        isDigit(src[j + 1]) &&
        isDigit(src[j + 2]) &&
        isDigit(src[j + 3]) &&
        !isDigit(src[j + 4]) &&
        digits !== ""
      ) {
        digits += src.slice(j + 1, j + 4);
        j += 4;
      }
      if (src[j] === "." && isDigit(src[j + 1])) {
        digits += ".";
        j++;
        while (isDigit(src[j])) digits += src[j++];
      } else if (src[j] === "." && digits !== "" && !isIdentStart(src[j + 1] ?? "")) {
        j++; // "5." is 5
      }
      if (digits === "" ) digits = "0";
      tokens.push({ kind: "number", text: src.slice(i, j), num: Number(digits.startsWith(".") ? "0" + digits : digits), line });
      i = j;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentChar(src[j] ?? "")) j++;
      const tok: Token = { kind: "ident", text: src.slice(i, j), line };
      if (src[j] === "#" && isIdentChar(src[j + 1] ?? "")) {
        let k = j + 1;
        while (k < n && isIdentChar(src[k] ?? "")) k++;
        tok.index = src.slice(j + 1, k);
        j = k;
      }
      tokens.push(tok);
      i = j;
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      tokens.push({ kind: "op", text: op, line });
      i += op.length;
      continue;
    }
    return { ok: false, error: { line, message: `unexpected character "${c}"` } };
  }
  tokens.push({ kind: "eof", text: "", line });
  return { ok: true, tokens };
}
