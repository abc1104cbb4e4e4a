/**
 * Text macros: `%%expression%%` inside page text, help, labels and button labels, and `POPUP://` links.
 */
import { getVar, varGet } from "./answers";
import { A2J_DATES, type DateLocale, formatDaysFor, showStoredDate } from "./dates";
import { compileExpression, evaluate } from "./script";
import type { Answers, Guide } from "./types";
import { own } from "./util";
import { toNumber, toStr } from "./values";
import { decodeEntities } from "./xml";

/** HTML-escape text for element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * Evaluate one macro expression to display text (not escaped). A bare reference to a Date variable shows
 * its date rather than a day count. Given the person's way of writing dates (`dates`), it and a bare `DATE(…)`
 * are written that way; without one, as A2J shows them (the stored text). A date inside a longer expression
 * stays as the guide computed it. Returns null and a message on a syntax error.
 */
export function macroValue(
  code: string,
  answers: Answers,
  today: number,
  dates: DateLocale = A2J_DATES,
): { ok: true; text: string } | { ok: false; error: string } {
  // `%%=expr%%` is written by some authors for the same thing as `%%expr%%`; no expression starts with "=".
  const source = code.trimStart().startsWith("=") ? code.trimStart().slice(1) : code;
  const compiled = compileExpression(source);
  if (!compiled.ok) return { ok: false, error: compiled.error.message };
  try {
    const e = compiled.value;
    const v = evaluate(e, { answers, today });
    if (e.k === "var" && typeof v === "number") {
      const rec = getVar(answers, e.ref.name);
      if (rec && (rec.type === "Date" || rec.type === "Text")) {
        const ix = e.ref.index;
        const idx = !ix ? 1 : ix.kind === "num" ? ix.value : Math.trunc(toNumber(varGet(answers, ix.name)));
        const raw = rec.values[idx];
        return { ok: true, text: typeof raw !== "string" ? formatDaysFor(v, dates) : rec.type === "Date" && dates !== A2J_DATES ? showStoredDate(raw, dates) : raw };
      }
    }
    if (e.k === "call" && e.name.toLowerCase() === "date" && typeof v === "string" && dates !== A2J_DATES) return { ok: true, text: showStoredDate(v, dates) };
    return { ok: true, text: toStr(v) };
  } catch (err) {
    return { ok: false, error: `runtime error: ${String(err)}` };
  }
}

/**
 * Replace every `%%expr%%` in `html` by its HTML-escaped value (newlines become `<BR>`). An expression that
 * does not parse renders as `<span class="code">expr</span><span class="err">message</span>`.
 * An unmatched trailing `%%` is left as text.
 */
export function renderMacros(html: string, answers: Answers, today: number, dates: DateLocale = A2J_DATES): string {
  try {
    return renderMacrosImpl(html, answers, today, dates);
  } catch {
    return html;
  }
}

function renderMacrosImpl(html: string, answers: Answers, today: number, dates: DateLocale): string {
  if (html.indexOf("%%") < 0) return html;
  const parts = html.split("%%");
  let out = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    if (i % 2 === 0) {
      out += part;
    } else if (i === parts.length - 1) {
      out += "%%" + part; // unmatched
    } else {
      const r = macroValue(part, answers, today, dates);
      if (r.ok) out += escapeHtml(r.text).replace(/\r?\n/g, "<BR>");
      else out += `<span class="code">${escapeHtml(part)}</span><span class="err">${escapeHtml(r.error)}</span>`;
    }
  }
  return out;
}

/**
 * Author text shown as plain text (a field's own error message, a button label, alt text, a button's message):
 * its macros evaluated, then its markup dropped (inline tags without a trace, block tags as a space), its
 * entities decoded and its spaces collapsed.
 */
export function renderMacrosAsText(text: string, answers: Answers, today: number, dates: DateLocale = A2J_DATES): string {
  if (text === "") return "";
  const html = renderMacros(text, answers, today, dates).replace(/<\/?(?:a|abbr|b|cite|code|em|font|i|q|s|small|span|strong|sub|sup|u)\b[^>]*>/gi, "");
  return decodeEntities(html.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
}

export interface PopupRef {
  /** Id used in the rewritten link (`#<id>`). */
  id: string;
  /** Page name of the popup. */
  name: string;
  /** True when the guide has this page. */
  exists: boolean;
}

function findPage(guide: Guide, name: string): string | null {
  if (own(guide.pages, name)) return name;
  const lower = name.toLowerCase();
  for (const k of Object.keys(guide.pages)) if (k.toLowerCase() === lower) return k;
  return null;
}

/**
 * Rewrite `href="POPUP://Page Name"` links to in-page anchors `#a2j-popup-N` and list the popup pages they name.
 * `idPrefix` lets callers keep ids unique on a page.
 */
export function resolvePopups(html: string, guide: Guide, idPrefix = "a2j-popup-"): { html: string; popups: PopupRef[] } {
  const popups: PopupRef[] = [];
  const out = html.replace(/href\s*=\s*(["'])\s*POPUP:\/\/([^"']*)\1/gi, (_m, q: string, raw: string) => {
    let name = decodeEntities(raw).trim();
    try {
      name = decodeURIComponent(name);
    } catch {
      // keep as is
    }
    name = name.replace(/\/$/, "");
    const found = findPage(guide, name);
    const key = found ?? name;
    let ref = popups.find((p) => p.name === key);
    if (!ref) {
      ref = { id: `${idPrefix}${popups.length + 1}`, name: key, exists: found !== null };
      popups.push(ref);
    }
    return `href=${q}#${ref.id}${q}`;
  });
  return { html: out, popups };
}
