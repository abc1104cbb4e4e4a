import { describe, expect, test } from "vitest";
import { ymdToDays } from "./dates";
import { loadGuide, loadGuideObject } from "./guide";
import { renderMacros, resolvePopups } from "./macros";
import type { Answers } from "./types";
import { innerXml, parseXml } from "./xml";

describe("XML parser", () => {
  test("elements, attributes, entities, CDATA, comments, PI, DOCTYPE", () => {
    const r = parseXml(
      `<?xml version="1.0"?><!DOCTYPE x [<!ELEMENT x ANY>]><!-- c --><A b='1' c="&lt;&#65;&#x42;&amp;"><B/>t&gt;<![CDATA[<raw>]]><?pi x?><!-- d --></A>`,
    );
    if (!r.ok) throw new Error(r.error);
    expect(r.value.attrs).toEqual({ b: "1", c: "<AB&" });
    expect(r.value.children).toEqual([
      { kind: "element", name: "B", attrs: {}, children: [] },
      { kind: "text", text: "t>" },
      { kind: "text", text: "<raw>", cdata: true },
    ]);
    expect(innerXml(r.value)).toBe("<B/>t&gt;&lt;raw&gt;");
  });
  test("errors carry a line number", () => {
    const cases = ["<a>", "<a></b>", "<a b=1/>", '<a b="1" b="2"/>', "<a/><b/>", "text", "<a>&</a", '<a b="<"/>'];
    for (const c of cases) {
      const r = parseXml("\n" + c);
      expect(r.ok, c).toBe(false);
      if (!r.ok) expect(r.error).toMatch(/line \d/);
    }
  });
});

describe("guide loading errors name the page and the problem", () => {
  const base = () => ({ firstPage: "A", pages: { A: { name: "A", fields: [], buttons: [] } } });
  test("not JSON or XML", () => {
    const r = loadGuide("nonsense");
    expect(r.ok === false && r.error).toMatch(/neither JSON nor XML/);
  });
  test("unknown field type", () => {
    const g = base();
    (g.pages.A as Record<string, unknown>).fields = [{ type: "slider", name: "x" }];
    expect(loadGuideObject(g)).toEqual({ ok: false, error: 'page "A" field 1: unknown field type "slider"' });
  });
  test("fields not a list, page not an object, bad step", () => {
    expect(loadGuideObject({ firstPage: "A", pages: { A: { name: "A", fields: 3 } } })).toEqual({ ok: false, error: 'page "A": fields must be a list' });
    expect(loadGuideObject({ firstPage: "A", pages: { A: "x" } })).toEqual({ ok: false, error: 'page "A" must be an object' });
    expect(loadGuideObject({ firstPage: "A", pages: { A: { name: "A", step: "two" } } })).toEqual({ ok: false, error: 'page "A" step must be a number' });
  });
  test("missing first page; no pages", () => {
    expect(loadGuideObject({ firstPage: "Z", pages: { A: { name: "A" } } })).toEqual({ ok: false, error: 'first page "Z" does not exist' });
    expect(loadGuideObject({ pages: {} })).toEqual({ ok: false, error: "the guide has no pages" });
  });
  test("XML: wrong root, page without NAME, malformed XML", () => {
    expect(loadGuide("<SELECT/>")).toEqual({
      ok: false,
      error: "not an A2J guide: the root element is <SELECT>, expected <GUIDE> (A2J 5 and later) or <TEMPLATE> (A2J 4)",
    });
    // An A2J 4 guide is converted (app/a2j/a2j4.test.ts); an empty one has nothing to run.
    expect(loadGuide("<TEMPLATE/>")).toEqual({ ok: false, error: "the guide has no pages" });
    expect(loadGuide("<GUIDE><PAGES><PAGE/></PAGES></GUIDE>")).toEqual({ ok: false, error: "page 1 has no NAME" });
    expect(loadGuide("<GUIDE><PAGES>").ok).toBe(false);
  });
  test("warnings for missing button targets and undeclared field variables", () => {
    const r = loadGuideObject({
      firstPage: "A",
      pages: { A: { name: "A", fields: [{ type: "number", name: "Age NU" }], buttons: [{ next: "Nope" }, { next: "SUCCESS" }] } },
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.warnings).toEqual(['page "A" button 1: target page "Nope" does not exist', 'page "A": field variable "Age NU" was not declared']);
    expect(r.guide.vars["age nu"]?.type).toBe("Number");
    expect(r.guide.vars["a2j interview incomplete tf"]?.type).toBe("TF");
  });
  test("XML guide: HTML elements read as inner markup; vars keyed case-insensitively; A2J 5 var keys", () => {
    const r = loadGuide(`<?xml version="1.0"?><GUIDE><INFO><TITLE>T &amp; U</TITLE><FIRSTPAGE>Start</FIRSTPAGE></INFO>
      <PAGES><PAGE NAME="Start" STEP="1" REPEATVAR="Kid "><TEXT><P>Hello <B>%%[Name]%%</B></P><DIV/><BR/></TEXT>
      <FIELDS><FIELD TYPE="text" REQUIRED="true"><LABEL>Name&#160;</LABEL><NAME>Name</NAME></FIELD></FIELDS>
      <BUTTONS><BUTTON NEXT="SUCCESS" REPEATVARSET="=1" REPEATVAR="Kid"><LABEL>Go</LABEL></BUTTON></BUTTONS>
      <CODEAFTER>IF Kid &gt; 1<BR/>SET x TO 1<BR/>END IF</CODEAFTER></PAGE></PAGES>
      <STEPS><STEP NUMBER="0"><TEXT>Zero</TEXT></STEP><STEP NUMBER="1"><TEXT>One</TEXT></STEP></STEPS>
      <VARIABLES><VARIABLE NAME="Name" TYPE="Text"/><VARIABLE NAME="Kid" TYPE="Number" REPEATING="false"/></VARIABLES></GUIDE>`);
    if (!r.ok) throw new Error(r.error);
    const p = r.guide.pages["Start"];
    expect(r.guide.title).toBe("T & U");
    expect(p?.text).toBe("<P>Hello <B>%%[Name]%%</B></P><DIV></DIV><BR/>");
    expect(p?.repeatVar).toBe("Kid");
    expect(p?.fields[0]).toMatchObject({ type: "text", required: true, label: "Name\u00a0", name: "Name" });
    expect(p?.buttons[0]).toMatchObject({ next: "SUCCESS", label: "Go", repeatVar: "Kid", repeatVarSet: "=1" });
    expect(p?.codeAfter).toBe("IF Kid &gt; 1<BR/>SET x TO 1<BR/>END IF");
    expect(r.guide.vars["kid"]).toEqual({ name: "Kid", type: "Number", repeating: false, comment: "" });
    const j = loadGuideObject({ firstPage: "A", vars: { "Client Name TE": { name: "Client Name TE", type: "Text" } }, pages: { A: { name: "A" } } });
    expect(j.ok && j.guide.vars["client name te"]?.name).toBe("Client Name TE");
  });
});

describe("macros", () => {
  const today = ymdToDays(2024, 3, 15) as number;
  const a: Answers = {
    name: { name: "Name", type: "Text", repeating: false, values: [null, "Ann & <Bo>"] },
    dob: { name: "DOB", type: "Date", repeating: false, values: [null, "1/2/2000"] },
    kids: { name: "Kids", type: "Text", repeating: true, values: [null, "A", "B"] },
    note: { name: "Note", type: "Text", repeating: false, values: [null, "one\ntwo"] },
  };
  test("evaluated and HTML-escaped; newlines become <BR>", () => {
    expect(renderMacros("Hi %%[Name]%%!", a, today)).toBe("Hi Ann &amp; &lt;Bo&gt;!");
    expect(renderMacros("%%1+1%% and %%ORDINAL(2)%%", a, today)).toBe("2 and second");
    expect(renderMacros("%%[Note]%%", a, today)).toBe("one<BR>two");
    expect(renderMacros("%%[Kids]%% / %%[Kids#2]%%", a, today)).toBe("A and B / B");
  });
  test("a Date variable shows its stored date; arithmetic on it gives days", () => {
    expect(renderMacros("%%[DOB]%%", a, today)).toBe("1/2/2000");
    expect(renderMacros("%%DATE([DOB] + 1)%%", a, today)).toBe("01/03/2000");
    expect(renderMacros("%%AGE([DOB])%%", a, today)).toBe("24");
  });
  test("HTML-escaped code in macros is unescaped first", () => {
    expect(renderMacros("%%3 &gt; 2%%", a, today)).toBe("true");
  });
  test("errors render inline; an unmatched %% stays", () => {
    expect(renderMacros("x %%1 +%% y", a, today)).toBe('x <span class="code">1 +</span><span class="err">expected a value, found end of script</span> y');
    expect(renderMacros("100%% sure", a, today)).toBe("100%% sure");
  });
  test("POPUP:// links become anchors to the popup pages", () => {
    const g = loadGuideObject({ firstPage: "A", pages: { A: { name: "A" }, "Pop up?": { name: "Pop up?", type: "Popup", text: "hi" } } });
    if (!g.ok) throw new Error(g.error);
    const r = resolvePopups('<a href="POPUP://Pop%20up?">x</a> <A HREF="popup://pop up?">y</A> <a href="POPUP://Gone">z</a>', g.guide);
    expect(r.html).toBe('<a href="#a2j-popup-1">x</a> <A href="#a2j-popup-1">y</A> <a href="#a2j-popup-2">z</a>');
    expect(r.popups).toEqual([
      { id: "a2j-popup-1", name: "Pop up?", exists: true },
      { id: "a2j-popup-2", name: "Gone", exists: false },
    ]);
  });
});

describe("external pick lists (listSrc)", () => {
  test("withPickLists fills listData from the caller's files, stripping <SELECT>", async () => {
    const { withPickLists } = await import("./guide");
    const { listOptions } = await import("./validate");
    const r = loadGuideObject({
      firstPage: "A",
      pages: { A: { name: "A", fields: [{ type: "textpick", name: "County", listSrc: "counties.xml" }, { type: "textpick", name: "Other", listSrc: "none.xml" }] } },
    });
    if (!r.ok) throw new Error(r.error);
    const g = withPickLists(r.guide, {
      "counties.xml": '<?xml version="1.0"?><SELECT name="x"><option value="cook">Cook</option><option>Lake</option></SELECT>',
    });
    expect(listOptions(g.pages["A"]!.fields[0]!)).toEqual([
      { value: "cook", label: "Cook" },
      { value: "Lake", label: "Lake" },
    ]);
    expect(g.pages["A"]!.fields[1]!.listData).toBe("");
    expect(r.guide.pages["A"]!.fields[0]!.listData).toBe(""); // input untouched
  });
});

describe("script checks at load time (warnings)", () => {
  test("compile errors, GOTOs to missing pages and undeclared variables", () => {
    const r = loadGuideObject({
      firstPage: "A",
      vars: { known: { name: "Known", type: "Number" } },
      pages: {
        A: { name: "A", codeBefore: "SET [Known] TO 1<BR/>IF Known = 1", codeAfter: 'SET [Typo var] TO [Known] + [Other#Known]<BR/>GOTO "Gone"' },
      },
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.warnings).toEqual([
      'page "A" codeBefore line 2: IF without END IF',
      'page "A" codeAfter: GOTO page "Gone" does not exist',
      'page "A" codeAfter: variable "Typo var" is not declared',
      'page "A" codeAfter: variable "Other" is not declared',
    ]);
  });
});

describe("pretty-printed Guide.xml", () => {
  test("indentation inside HTML elements is not part of the text", () => {
    const r = loadGuide(`<GUIDE>
  <INFO><FIRSTPAGE>A</FIRSTPAGE></INFO>
  <PAGES>
    <PAGE NAME="A">
      <TEXT>
        <P>
          <B>Bold</B>
          <I>italic</I> and text
        </P>
        <P>Two</P>
      </TEXT>
      <FIELDS>
        <FIELD TYPE="textpick">
          <NAME>Color</NAME>
          <LISTDATA>
            <option>Red</option>
            <option>Blue</option>
          </LISTDATA>
        </FIELD>
      </FIELDS>
    </PAGE>
  </PAGES>
</GUIDE>`);
    if (!r.ok) throw new Error(r.error);
    const p = r.guide.pages["A"];
    expect(p?.text).toBe("<P><B>Bold</B> <I>italic</I> and text\n        </P><P>Two</P>");
    expect(p?.fields[0]?.listData).toBe("<option>Red</option><option>Blue</option>");
    expect(p?.fields[0]?.name).toBe("Color");
  });
});
