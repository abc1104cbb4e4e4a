/**
 * A synthetic, deterministic A2J guide for benchmarks and stress tests: `pageCount` question pages in
 * sections of 20, each section ending in a repeat loop of 3 iterations, heavy codeBefore/codeAfter logic,
 * every common field type and HTML texts with macros (≈ 1.2 MB of Guide.json for 400 pages, 2,000 variables).
 */
import type { FormValues } from "../validate";

const LOREM =
  "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. " +
  "Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ";

export interface SyntheticGuide {
  /** Guide.json text. */
  json: string;
  /** Valid form values to post on each page (by page name). */
  answersFor: (pageName: string) => FormValues;
}

export function syntheticGuide(pageCount = 400): SyntheticGuide {
  const pages: Record<string, unknown> = {};
  const vars: Record<string, unknown> = {};
  const values: Record<string, FormValues> = {};
  const v = (name: string, type: string, repeating = false) => {
    vars[name.toLowerCase()] = { name, type, repeating, comment: "" };
  };
  const field = (type: string, name: string, extra: Record<string, unknown> = {}) => ({
    type,
    label: `<P>Question about ${name}? %%[Name TE]%%</P>`,
    name,
    value: "",
    required: true,
    order: "",
    min: "",
    max: "",
    maxChars: "",
    calculator: false,
    listSrc: "",
    listData: "",
    sample: "",
    invalidPrompt: "",
    ...extra,
  });
  v("Name TE", "Text");
  v("Total NU", "Number");
  v("Flag TF", "TF");
  const name = (i: number) => `P${String(i).padStart(4, "0")}`;
  for (let i = 0; i < pageCount; i++) {
    const section = Math.floor(i / 20);
    const inSection = i % 20;
    const isLoopPage = inSection === 19;
    const counter = `Loop${section}`;
    const nextPage = i + 1 < pageCount ? name(i + 1) : "SUCCESS";
    const t = `T${i} TE`;
    const n = `N${i} NU`;
    const d = `D${i} DA`;
    const c = `C${i} TF`;
    const r = `R${i} MC`;
    v(t, "Text", isLoopPage);
    v(n, "Number", isLoopPage);
    v(d, "Date", isLoopPage);
    v(c, "TF", isLoopPage);
    v(r, "MC", isLoopPage);
    if (isLoopPage) v(counter, "Number");
    const fields = [
      field("text", t, { maxChars: "100" }),
      field("number", n, { min: "0", max: "1000000" }),
      field("datemdy", d, { max: "TODAY" }),
      field("checkbox", c, { required: false }),
      field("radio", r, { value: "yes" }),
      field("radio", r, { value: "no" }),
    ];
    values[name(i)] = {
      [t.toLowerCase()]: `Answer ${i}`,
      [n.toLowerCase()]: "1,234.5",
      [d.toLowerCase()]: "01/02/2003",
      [c.toLowerCase()]: i % 2 ? "on" : "",
      [r.toLowerCase()]: i % 3 ? "yes" : "no",
    };
    const codeBefore = [
      `IF [Flag TF] = TRUE AND [N${Math.max(0, i - 1)} NU] > 1000000`,
      `GOTO "${name(Math.min(pageCount - 1, i + 2))}"`,
      `ELSE IF HASANSWERED([T${i} TE]) AND NOT [C${i} TF]`,
      `SET [Total NU] TO [Total NU] + 1`,
      "ELSE",
      `SET [Total NU] TO ROUND2([Total NU] + 0.5)`,
      "END IF",
      `// section ${section} page ${inSection}`,
    ].join("<BR/>");
    const codeAfter = isLoopPage
      ? [`IF ${counter} &gt;= 3`, `GOTO "${nextPage}"`, "END IF", `SET [Name TE] TO "Loop " + ORDINAL(${counter})`].join("<BR/>")
      : [
          `SET [Total NU] TO [Total NU] + [N${i} NU]`,
          `IF [R${i} MC] = "yes" OR [D${i} DA] &lt; TODAY - 365`,
          `SET [Flag TF] TO FALSE`,
          `SET [Name TE] TO "Person " + DOLLAR([Total NU])`,
          "END IF",
        ].join("<BR/>");
    const buttons = isLoopPage
      ? [{ label: "Again", next: name(i), url: "", name: "", value: "", repeatVar: counter, repeatVarSet: "+=1" }]
      : [
          {
            label: "Continue",
            next: nextPage,
            url: "",
            name: "",
            value: "",
            repeatVar: inSection === 18 ? counter : "",
            repeatVarSet: inSection === 18 ? "=1" : "",
          },
        ];
    pages[name(i)] = {
      name: name(i),
      type: "A2J",
      step: section % 10,
      repeatVar: isLoopPage ? counter : "",
      nested: false,
      outerLoopVar: "",
      text: `<P>Page ${i} of ${pageCount}, %%[Name TE]%%, total %%DOLLAR([Total NU])%%.</P><P>${LOREM}</P>` + (isLoopPage ? `<P>Item %%ORDINAL(${counter})%%</P>` : ""),
      learn: "Why?",
      help: `<P>${LOREM}</P>`,
      fields,
      buttons,
      codeBefore,
      codeAfter,
      notes: "",
    };
  }
  const guide = {
    tool: "A2J",
    toolversion: "2012-04-19",
    viewer: "A2J",
    title: "Synthetic stress guide",
    description: "",
    firstPage: name(0),
    exitPage: "",
    steps: Array.from({ length: 10 }, (_, k) => ({ number: String(k), text: `Step ${k}` })),
    vars,
    pages,
  };
  return { json: JSON.stringify(guide), answersFor: (p) => values[p] ?? {} };
}
