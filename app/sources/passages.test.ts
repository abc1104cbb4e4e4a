import { describe, expect, it } from "vitest";
import { PASSAGE_WORDS, plainInline, splitIntoPassages } from "./passages";

const words = (n: number, word = "word") => Array.from({ length: n }, (_, i) => `${word}${i}`).join(" ");
const count = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe("passages", () => {
  it("keeps the heading with each passage, and joins short paragraphs of one section", () => {
    const passages = splitIntoPassages({ text: "Intro line.\n\n# Bonds\n\nFirst *short* paragraph.\n\nSecond [linked](https://x.org) one.\n\n## Tribunal\n\nApply within 14 days." });
    expect(passages).toEqual([
      { ordinal: 1, heading: null, page: null, text: "Intro line." },
      { ordinal: 2, heading: "Bonds", page: null, text: "First short paragraph.\n\nSecond linked one." },
      { ordinal: 3, heading: "Tribunal", page: null, text: "Apply within 14 days." },
    ]);
  });

  it("cuts a long section into passages of about 100 to 250 words, between sentences", () => {
    const sentence = (i: number) => `${words(30, `s${i}w`)}.`;
    const long = Array.from({ length: 20 }, (_, i) => sentence(i)).join(" ");
    const passages = splitIntoPassages({ text: `## Long\n\n${long}` });
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages) {
      expect(count(passage.text)).toBeLessThanOrEqual(PASSAGE_WORDS.most);
      expect(passage.heading).toBe("Long");
      expect(passage.text.endsWith(".")).toBe(true);
    }
    expect(passages.map((p) => p.text).join(" ").split(/\s+/)).toEqual(long.split(/\s+/));
    // One sentence longer than a passage is cut between words.
    const endless = splitIntoPassages({ text: words(600) });
    expect(endless.map((p) => count(p.text))).toEqual([250, 250, 100]);
  });

  it("numbers a PDF's passages by the page they are on", () => {
    const passages = splitIntoPassages({ text: "", pages: ["Page one\ntext.", "", "Page three."] });
    expect(passages).toEqual([
      { ordinal: 1, heading: null, page: 1, text: "Page one text." },
      { ordinal: 2, heading: null, page: 3, text: "Page three." },
    ]);
  });

  it("reads markdown's lists, quotes and code fences as text", () => {
    expect(plainInline("**Bold** and __strong__, `code` and <b>tags</b>")).toBe("Bold and strong, code and tags");
    const passages = splitIntoPassages({ text: "- one\n- two\n\n> quoted\n\n```\n# not a heading\n```" });
    expect(passages).toHaveLength(1);
    expect(passages[0]!.text).toBe("- one\n\n- two\n\nquoted\n\n# not a heading");
  });
});
