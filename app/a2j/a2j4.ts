/**
 * A2J Author 4 guides (one XML file, root `<TEMPLATE>`, questions numbered by ID, rules as MACRO/STATEMENT
 * records) converted into the plain records of an A2J 5+ guide, as A2J Author converts them when it opens one
 * (docs/decisions/0022-a2j4-guides.md says what maps to what). What cannot be carried over is reported in
 * `warnings`, naming the question. Pure: no I/O.
 */
import { FIELD_TYPES, type FieldType } from "./types";
import { attr, childElement, childElements, escapeText, innerXml, stripFormattingWhitespace, textContent, type XmlElement } from "./xml";

export interface A2J4Conversion {
  /** A Guide.json-shaped record (pages keyed by name), for the same loader as A2J 5+ guides. */
  data: Record<string, unknown>;
  warnings: string[];
}

/** A2J 4 left these in every converted guide as a placeholder comment; A2J Author drops them too. */
const BOILERPLATE_COMMENTS = new Set(["", "undefined", "example: set a flag if income too high"]);

function html(el: XmlElement | undefined): string {
  return el ? innerXml(stripFormattingWhitespace(el), true).trim() : "";
}

function child(el: XmlElement, name: string): string {
  return html(childElement(el, name));
}

function text(el: XmlElement, name: string): string {
  const c = childElement(el, name);
  return c ? textContent(c).trim() : "";
}

function flag(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  return v.trim().toLowerCase() === "true";
}

/** A SET's target as A2J 5 writes it: bracketed when the name holds anything but a bare word. */
function setTarget(name: string): string {
  const n = name.trim();
  if (/^\[.*\]$/.test(n)) return n;
  return /^[A-Za-z_]\w*(#\w+)?$/.test(n) ? n : `[${n}]`;
}

/** Script code is stored as HTML (docs/a2j-formats.md): a `<` in a condition must not look like markup. */
function code(line: string): string {
  return escapeText(line);
}

/**
 * Convert the root `<TEMPLATE>` element. The result still goes through the A2J 5 loader, which checks
 * targets, steps, variables and scripts and adds its own warnings.
 */
export function convertA2J4(root: XmlElement): A2J4Conversion {
  const warnings: string[] = [];
  const questions = childElements(childElement(root, "QUESTIONS") ?? root, "QUESTION");

  // Pages first, so that buttons and GOTOs can name them: a question's NAME, made unique as A2J Author does.
  const pageOf = new Map<string, string>();
  const used = new Set<string>();
  const unique = (preferred: string) => {
    const base = preferred === "" ? "Page" : preferred;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base} ${n}`;
    used.add(name);
    return name;
  };
  for (const q of questions) {
    const id = (attr(q, "ID") ?? "").trim();
    const wanted = (attr(q, "NAME") ?? "").trim();
    const name = unique(wanted);
    if (id !== "" && pageOf.has(id)) warnings.push(`question ${id} appears twice; the second is kept as page "${name}"`);
    else if (id !== "") pageOf.set(id, name);
    if (wanted !== "" && name !== wanted) warnings.push(`question ${id} "${wanted}": another question has that name, so it is page "${name}"`);
  }
  const target = (id: string) => {
    const t = id.trim();
    return pageOf.get(t) ?? t;
  };
  const where = (q: XmlElement) => `question ${(attr(q, "ID") ?? "").trim()} "${(attr(q, "NAME") ?? "").trim()}"`;

  const popupsById = new Map<string, string>();
  for (const p of childElements(childElement(root, "POPUPS") ?? root, "POPUP")) {
    popupsById.set((attr(p, "ID") ?? "").trim(), child(p, "TEXT"));
  }
  const popupPages: Record<string, unknown>[] = [];
  const popupPageOf = new Map<string, string>();
  // Each A2J 4 popup linked from a page becomes a popup page of that page, named after it (A2J Author's way).
  // A2J Author makes one per link and follows popups inside popups without end; one per page and popup keeps
  // a popup that links to itself (or a web of them) from multiplying pages.
  const withPopups = (pageName: string, markup: string, at: string): string =>
    markup.replace(/(["'])\s*POPUP:\/\/([^"']*)\1/gi, (whole, quote: string, rawId: string) => {
      const id = rawId.trim();
      const popup = popupsById.get(id);
      if (popup === undefined) {
        warnings.push(`${at}: a link opens popup ${id}, which the guide does not have`);
        return whole;
      }
      const key = `${pageName}\u0000${id}`;
      let name = popupPageOf.get(key);
      if (name === undefined) {
        name = unique(`${pageName} popup`);
        popupPageOf.set(key, name);
        popupPages.push({ name, type: "Popup", text: withPopups(pageName, popup, at) });
      }
      return `${quote}POPUP://${escapeText(name)}${quote}`;
    });

  const pages: Record<string, unknown>[] = [];
  for (const q of questions) {
    const id = (attr(q, "ID") ?? "").trim();
    const name = pageOf.get(id) ?? unique((attr(q, "NAME") ?? "").trim());
    const at = where(q);

    const fields = childElements(childElement(q, "FIELDS") ?? q, "FIELD").map((f) => {
      const rawType = (attr(f, "TYPE") ?? "").trim();
      let type: FieldType | undefined = FIELD_TYPES.find((t) => t.toLowerCase() === rawType.toLowerCase());
      const label = child(f, "LABEL");
      if (!type) {
        warnings.push(`${at}: field "${textContent(childElement(f, "LABEL") ?? f).trim()}" has the unknown type "${rawType}"; it is a text box`);
        type = "text";
      }
      const required = flag(attr(f, "REQUIRED"));
      const optional = flag(attr(f, "OPTIONAL"));
      const select = childElement(f, "SELECT");
      const listSrc = text(f, "LISTSRC");
      const listData = select ? html(select) : child(f, "LISTDATA");
      if (select && type !== "textpick" && /<option\b/i.test(listData)) {
        warnings.push(`${at}: the choices listed on the ${type} field "${textContent(childElement(f, "LABEL") ?? f).trim()}" are not used (only pick lists have choices)`);
      }
      return {
        type,
        label,
        name: text(f, "NAME"),
        value: childElement(f, "VALUE") ? child(f, "VALUE") : (attr(f, "VALUE") ?? ""),
        // A2J 4 marked the fields that may be left blank; every other field had to be answered.
        required: required ?? !(optional ?? false),
        order: attr(f, "ORDER") ?? "",
        min: attr(f, "MIN") ?? "",
        max: attr(f, "MAX") ?? "",
        maxChars: attr(f, "MAXCHARS") ?? "",
        calculator: flag(attr(f, "CALCULATOR")) ?? false,
        listSrc,
        // The options A2J 4 saved with the field are kept beside its list file: A2J 5 uses them first, and they
        // still let a person answer when the list file did not come with the guide.
        listData: type === "textpick" ? listData : "",
        sample: child(f, "SAMPLE"),
        invalidPrompt: child(f, "INVALIDPROMPT"),
      };
    });

    // Checkboxes sharing one variable, each with its own value, were a multiple choice in A2J 4; A2J 5 stores
    // one TRUE/FALSE per checkbox variable, so the values cannot be kept.
    const checkboxVars = new Map<string, string[]>();
    for (const f of fields) {
      if ((f.type === "checkbox" || f.type === "checkboxNOTA") && f.name !== "" && f.value !== "") {
        checkboxVars.set(f.name.toLowerCase(), [...(checkboxVars.get(f.name.toLowerCase()) ?? []), f.value]);
      }
    }
    for (const [, values] of checkboxVars) {
      if (values.length < 2) continue;
      const varName = fields.find((f) => f.value === values[0])?.name ?? "";
      warnings.push(
        `${at}: ${values.length} checkboxes share the variable "${varName}" with the values ${values.map((v) => `"${v}"`).join(", ")}; ` +
          `they are converted as one TRUE/FALSE answer, so which one was ticked is not kept`,
      );
    }

    const buttons = childElements(childElement(q, "BUTTONS") ?? q, "BUTTON").map((b) => ({
      label: child(b, "LABEL"),
      next: target(attr(b, "NEXT") ?? ""),
      url: attr(b, "URL") ?? "",
      name: (attr(b, "NAME") ?? text(b, "NAME")).trim(),
      value: child(b, "VALUE"),
      repeatVar: attr(b, "REPEATVAR") ?? "",
      repeatVarSet: attr(b, "REPEATVARSET") ?? "",
    }));

    const before: string[] = [];
    const after: string[] = [];
    for (const m of childElements(childElement(q, "MACROS") ?? q, "MACRO")) {
      const event = text(m, "EVENT").toUpperCase();
      const condition = text(m, "CONDITION");
      const comment = text(m, "COMMENT").replace(/\s+/g, " ");
      const whenTrue: string[] = [];
      const whenFalse: string[] = [];
      for (const s of childElements(childElement(m, "STATEMENTS") ?? m, "STATEMENT")) {
        const action = text(s, "ACTION");
        let line: string;
        const set = /^set\s+(.+)$/is.exec(action);
        const go = /^goto\s+(.+)$/is.exec(action);
        if (set) {
          const body = set[1] as string;
          const to = /^(.+?)\s+to\s+(.*)$/is.exec(body);
          const eq = body.indexOf("=");
          const [name, value] = to ? [to[1] as string, to[2] as string] : eq > 0 ? [body.slice(0, eq), body.slice(eq + 1)] : ["", ""];
          if (name.trim() === "") {
            warnings.push(`${at}: the rule "${action}" sets no variable and is left out`);
            continue;
          }
          const v = value.trim();
          line = `SET ${setTarget(name)} TO ${v === "" ? '""' : v}`;
        } else if (go) {
          line = `GOTO "${target((go[1] as string).replace(/^["']|["']$/g, ""))}"`;
        } else if (action === "") {
          continue;
        } else {
          warnings.push(`${at}: the rule "${action}" is neither SET nor GOTO; it is kept as a comment and does nothing`);
          line = `//${action}`;
        }
        (text(s, "CONDITION").toLowerCase() === "true" ? whenTrue : whenFalse).push(line);
      }
      const lines: string[] = [];
      if (!BOILERPLATE_COMMENTS.has(comment.toLowerCase())) lines.push(`//${comment}`);
      if (["true", "1", "1=1", "if 1=1"].includes(condition.toLowerCase())) {
        // Always true: the "false" statements could never run (A2J Author drops them too).
        lines.push(...whenTrue);
      } else if (whenFalse.length === 0) {
        lines.push(`IF ${condition}`, ...whenTrue.map((l) => ` ${l}`), "END IF");
      } else if (whenTrue.length === 0) {
        lines.push(`IF NOT (${condition})`, ...whenFalse.map((l) => ` ${l}`), "END IF");
      } else {
        lines.push(`IF ${condition}`, ...whenTrue.map((l) => ` ${l}`), "ELSE", ...whenFalse.map((l) => ` ${l}`), "END IF");
      }
      (event === "BEFORE" ? before : after).push(...lines);
    }

    // A2J 4 stored media paths the Windows way ("Audio\1 Welcome.mp3").
    const media = (n: string) => text(q, n).replace(/\\/g, "/");
    pages.push({
      name,
      type: "A2J",
      step: attr(q, "STEP") ?? "0",
      repeatVar: attr(q, "REPEATVAR") ?? "",
      outerLoopVar: attr(q, "OUTERLOOPVAR") ?? "",
      nested: attr(q, "NESTED") ?? "",
      text: withPopups(name, child(q, "TEXT"), at),
      textCitation: child(q, "TEXTCITATION"),
      textAudioURL: media("TEXTAUDIO"),
      learn: child(q, "LEARN"),
      help: withPopups(name, child(q, "HELP"), at),
      helpCitation: child(q, "HELPCITATION"),
      helpMediaLabel: child(q, "HELPMEDIALABEL"),
      helpAudioURL: media("HELPAUDIO"),
      helpReader: child(q, "HELPREADER"),
      helpImageURL: media("HELPGRAPHIC") || media("HELPIMAGE"),
      helpAltText: text(q, "HELPALTTEXT"),
      helpVideoURL: media("HELPVIDEO"),
      fields,
      buttons,
      codeBefore: before.map(code).join("<BR/>"),
      codeAfter: after.map(code).join("<BR/>"),
      codeCitation: child(q, "CODECITATION"),
      notes: child(q, "NOTE"),
    });
  }

  const vars: Record<string, unknown>[] = [];
  for (const v of childElements(childElement(root, "VARIABLES") ?? root, "VARIABLE")) {
    const name = (attr(v, "NAME") ?? "").trim();
    if (name === "") continue;
    if (name.includes("#")) {
      // "child name#1" is one answer of the repeating "child name", which A2J 4 also listed as a variable.
      warnings.push(`variable "${name}" names one answer of a list, not a variable; it is left out`);
      continue;
    }
    vars.push({
      name,
      type: attr(v, "TYPE") ?? "",
      repeating: attr(v, "REPEATING") ?? false,
      comment: attr(v, "COMMENT") ?? text(v, "COMMENT"),
    });
  }

  const steps = childElements(childElement(root, "STEPS") ?? root, "STEP").map((s) => ({
    number: attr(s, "NUMBER") ?? "",
    text: child(s, "TEXT"),
  }));
  const first = text(root, "FIRSTQUESTION");
  const exit = text(root, "EXITQUESTION");
  if (first !== "" && !pageOf.has(first)) warnings.push(`the first question ${first} does not exist`);
  if (exit !== "" && !pageOf.has(exit)) warnings.push(`the exit question ${exit} does not exist`);
  const jurisdiction = text(root, "JURISDICTION");
  const author = text(root, "AUTHOR");
  const data: Record<string, unknown> = {
    title: text(root, "TITLE"),
    description: child(root, "DESCRIPTION"),
    jurisdiction,
    subjectarea: jurisdiction,
    language: text(root, "LANGUAGE"),
    version: text(root, "VERSION"),
    tool: "A2J",
    toolversion: text(root, "A2JVERSION"),
    avatar: text(root, "AVATAR"),
    guideGender: text(root, "GUIDEGENDER"),
    authors: author === "" ? [] : [{ name: author }],
    firstPage: first === "" ? "" : target(first),
    exitPage: exit === "" || !pageOf.has(exit) ? "" : target(exit),
    steps,
    vars,
    pages: [...pages, ...popupPages],
  };
  return { data, warnings };
}
