/**
 * ANX (HotDocs answer XML) writer and reader, as A2J uses for `AnswerKey` and resume (docs/a2j-formats.md).
 * Dates are day/month/year in ANX; repeating blanks keep `UNANS="true"` placeholders.
 */
import { createAnswers, isBlank, varKey } from "./answers";
import { swapMonthAndDay } from "./dates";
import type { Answers, AnswerValue, AnswerVar, Guide, Result, VarType } from "./types";
import { own, setOwn } from "./util";
import { attr, childElements, escapeAttr, escapeText, parseXml, textContent, type XmlElement } from "./xml";

const ELEMENT_BY_TYPE: Record<VarType, string> = {
  Text: "TextValue",
  Number: "NumValue",
  TF: "TFValue",
  MC: "MCValue",
  Date: "DateValue",
  Other: "OtherValue",
  Unknown: "TextValue",
  Attachment: "TextValue",
};

function valueText(type: VarType, v: AnswerValue): string {
  if (v === null) return "";
  if (type === "Date" && typeof v === "string") return swapMonthAndDay(v.trim());
  if (type === "TF") return v === true || (typeof v === "string" && v.toLowerCase() === "true") ? "true" : "false";
  return String(v);
}

function valueXml(type: VarType, v: AnswerValue): string {
  const el = ELEMENT_BY_TYPE[type] ?? "TextValue";
  if (isBlank(v)) return `<${el} UNANS="true"></${el}>`;
  const text = escapeText(valueText(type, v)).replace(/"/g, "&quot;");
  if (type === "MC") return `<MCValue><SelValue>${text}</SelValue></MCValue>`;
  return `<${el}>${text}</${el}>`;
}

/**
 * Write answers as an ANX document. Non-repeating blanks are omitted; repeating variables (or variables with
 * values past index 1) are written as `<RptValue>` with `UNANS` placeholders for blanks. Names keep their case.
 */
export function answersToANX(answers: Answers, title = ""): string {
  let out = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<AnswerSet title="${escapeAttr(title)}">\n`;
  for (const key of Object.keys(answers)) {
    const v = own(answers, key);
    if (!v || v.name.includes("#") || v.name.trim() === "") continue;
    const values = v.values.slice(1);
    // Drop trailing blanks (positions before the last answer are kept).
    while (values.length > 0 && isBlank(values[values.length - 1] ?? null)) values.pop();
    if (values.length === 0) continue;
    const name = escapeAttr(v.name);
    if (v.repeating || values.length > 1) {
      out += `<Answer name="${name}"><RptValue>${values.map((x) => valueXml(v.type, x ?? null)).join("")}</RptValue></Answer>\n`;
    } else {
      out += `<Answer name="${name}">${valueXml(v.type, values[0] ?? null)}</Answer>\n`;
    }
  }
  return out + "</AnswerSet>\n";
}

function typeOfElement(name: string): VarType | null {
  switch (name.toLowerCase()) {
    case "textvalue":
      return "Text";
    case "numvalue":
      return "Number";
    case "tfvalue":
      return "TF";
    case "mcvalue":
    case "selvalue":
      return "MC";
    case "datevalue":
      return "Date";
    case "othervalue":
      return "Other";
    default:
      return null;
  }
}

function typeFromSuffix(name: string): VarType | null {
  const n = name.trim().toUpperCase();
  if (n.endsWith(" MC")) return "MC";
  if (n.endsWith(" TF")) return "TF";
  if (n.endsWith(" NU")) return "Number";
  if (n.endsWith(" DA")) return "Date";
  if (n.endsWith(" TE")) return "Text";
  return null;
}

function readValue(el: XmlElement, type: VarType): AnswerValue {
  if ((attr(el, "UNANS") ?? "").toLowerCase() === "true") return null;
  // MC: the <SelValue> inside <MCValue> (or the swapped form), without indentation around it.
  const sel = el.name.toLowerCase() === "mcvalue" ? childElements(el, "SelValue")[0] : undefined;
  const isMc = el.name.toLowerCase() === "mcvalue" || el.name.toLowerCase() === "selvalue";
  const text = isMc ? textContent(sel ?? el).trim() : textContent(el);
  switch (type) {
    case "Number": {
      const t = text.trim();
      if (t === "") return null;
      const n = Number(t);
      return Number.isNaN(n) ? t : n;
    }
    case "TF":
      return text.trim().toLowerCase() === "true";
    case "Date":
      return text.trim() === "" ? null : swapMonthAndDay(text.trim());
    default:
      return text;
  }
}

/**
 * Read an ANX document. Names match case-insensitively; variables unknown to the guide are created (typed from
 * their element); names containing `#` are skipped. With a guide, its variables start as `values: [null]`.
 */
export function answersFromANX(xml: string, guide?: Guide): Result<Answers> {
  try {
    return readANX(xml, guide);
  } catch (e) {
    return { ok: false, error: `could not read the answer file: ${String(e)}` };
  }
}

function readANX(xml: string, guide?: Guide): Result<Answers> {
  const parsed = parseXml(xml);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const root = parsed.value;
  if (root.name.toLowerCase() !== "answerset") {
    return { ok: false, error: `not an answer file: the root element is <${root.name}>, expected <AnswerSet>` };
  }
  const answers: Answers = guide ? createAnswers(guide) : {};
  for (const a of childElements(root, "Answer")) {
    const name = (attr(a, "name") ?? "").trim();
    if (name === "" || name.includes("#")) continue;
    const key = varKey(name);
    const first = childElements(a)[0];
    if (!first) continue;
    const repeating = first.name.toLowerCase() === "rptvalue";
    const valueEls = repeating ? childElements(first) : [first];
    const existing = own(answers, key);
    const guideVar = guide ? own(guide.vars, key) : undefined;
    let type: VarType = guideVar?.type ?? existing?.type ?? "Unknown";
    if (type === "Unknown") {
      const fromEl = valueEls[0] ? typeOfElement(valueEls[0].name) : null;
      type = fromEl === "Text" || fromEl === null ? (typeFromSuffix(name) ?? fromEl ?? "Text") : fromEl;
    }
    const values: AnswerValue[] = [null, ...valueEls.map((el) => readValue(el, type))];
    const rec: AnswerVar = {
      name: guideVar?.name ?? existing?.name ?? name,
      type,
      repeating: guideVar?.repeating ?? (existing?.repeating || repeating),
      values,
    };
    const comment = guideVar?.comment ?? existing?.comment;
    if (comment !== undefined) rec.comment = comment;
    setOwn(answers, key, rec);
  }
  return { ok: true, value: answers };
}
