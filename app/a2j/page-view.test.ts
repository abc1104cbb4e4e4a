import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { plainText, withoutLeadingWords } from "./page-view";

// The text below a page's heading does not say the heading's sentence again (issue 25, finding 7).
describe("the text below the heading, without the sentence the heading says", () => {
  test("drops the first sentence wherever the author's markup puts it, and keeps every tag", () => {
    expect(withoutLeadingWords("<p>Welcome. This interview helps you.</p>", "Welcome.")).toBe("<p>This interview helps you.</p>");
    expect(withoutLeadingWords("<p><strong>Who owes you money?</strong> Give their full name.</p>", "Who owes you money?")).toBe(
      "<p>Give their full name.</p>",
    );
    // A sentence over two paragraphs' worth of markup, an entity, and a line break after it.
    expect(withoutLeadingWords("<p>Tom &amp; <em>Ann</em> agree.<br/>Then sign.</p>", "Tom & Ann agree.")).toBe("<p>Then sign.</p>");
    expect(withoutLeadingWords("<h2>Your rights.</h2><p>You may ask.</p>", "Your rights.")).toBe("<p>You may ask.</p>");
    // Tags between words count as spaces, as plainText reads them.
    expect(withoutLeadingWords("<p>Who<br>are you? Tell us.</p>", "Who are you?")).toBe("<p>Tell us.</p>");
    expect(withoutLeadingWords("<p>Who&nbsp;are you? Tell us.</p>", "Who are you?")).toBe("<p>Tell us.</p>");
  });

  test("keeps the text whole when it does not start with those words, or when they hold a link or media", () => {
    expect(withoutLeadingWords("<p>Hello there. More.</p>", "Welcome.")).toBeNull();
    expect(withoutLeadingWords("<p>Welcome</p>", "Welcome.")).toBeNull();
    expect(withoutLeadingWords('<p>Read <a href="#p1">the rules</a>. Then sign.</p>', "Read the rules.")).toBeNull();
    expect(withoutLeadingWords('<p><img src="x.png" alt="">Look. Then sign.</p>', "Look.")).toBeNull();
    expect(withoutLeadingWords("<p>Welcome. Next.</p>", "")).toBeNull();
  });

  test("what is left reads as the text after the sentence, for any markup around any words", () => {
    const word = fc.stringMatching(/^[A-Za-z0-9'&]{1,8}$/).map((w) => w.replace(/&/g, "&amp;"));
    const wrap = fc.constantFrom((w: string) => w, (w: string) => `<strong>${w}</strong>`, (w: string) => `<em>${w}</em>`, (w: string) => `${w}<br>`);
    const words = fc.array(fc.tuple(word, wrap), { minLength: 1, maxLength: 6 }).map((ws) => ws.map(([w, f]) => f(w)).join(" "));
    fc.assert(
      fc.property(words, words, fc.constantFrom("p", "div"), (first, rest, block) => {
        const html = `<${block}>${first}. ${rest}</${block}>`;
        const question = plainText(html);
        const sentence = question.match(/^.+?[.?!:](?=\s|$)/)![0];
        const body = withoutLeadingWords(html, sentence);
        expect(body).not.toBeNull();
        expect(plainText(body!)).toBe(question.slice(sentence.length).trim());
        expect(body!.startsWith(`<${block}>`)).toBe(true);
      }),
    );
  });
});
