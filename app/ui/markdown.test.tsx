import { describe, expect, it } from "vitest";
import { markdownToHtml as render } from "./markdown.server";
import { sanitizeHtml } from "./sanitize-html.server";

describe("markdown rendering", () => {
  it("renders markdown and the raw HTML our documents use", () => {
    const html = render(
      "## Heading\n\n**bold** and a [link](https://example.org)\n\n<section><abbr title=\"General Data Protection Regulation\">GDPR</abbr></section>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<details><summary>More</summary>Hidden</details>",
    );
    expect(html).toContain("<h2>Heading</h2>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<a href="https://example.org">link</a>');
    expect(html).toContain('<abbr title="General Data Protection Regulation">GDPR</abbr>');
    expect(html).toContain("<section>");
    expect(html).toContain("<table>");
    expect(html).toContain("<summary>More</summary>");
  });

  it("keeps the page's only h1 by turning content h1 into h2", () => {
    expect(render("# Title")).toBe("<h2>Title</h2>");
  });

  it.each([
    ["a script element", "<script>alert(1)</script>Hello", /<script/i],
    ["an event handler", '<img src="https://example.org/x.png" onerror="alert(1)">', /onerror/i],
    ["a javascript: link", '<a href="javascript:alert(1)">click</a>', /javascript:/i],
    ["a data: link", '<a href="data:text/html,<script>alert(1)</script>">x</a>', /data:/i],
    ["an iframe", '<iframe src="https://evil.example"></iframe>', /<iframe/i],
    ["a style element", "<style>body{display:none}</style>", /<style/i],
    ["an inline style", '<p style="position:fixed">x</p>', /style=/i],
    ["a form", '<form action="https://evil.example"><input name="p"></form>', /<form|<input(?![^>]*disabled[^>]*type="checkbox")/i],
    ["an entity-encoded javascript: URL", '<a href="jav&#x09;ascript:alert(1)">x</a>', /javascript|ascript:/i],
  ])("drops %s", (_name, source, forbidden) => {
    expect(render(source)).not.toMatch(forbidden);
    expect(sanitizeHtml(source)).not.toMatch(forbidden);
  });

  it("drops a javascript: link written in markdown", () => {
    expect(render("[md](javascript:alert(2))")).not.toMatch(/javascript:/i);
  });

  it("keeps safe link schemes", () => {
    const html = render("[mail](mailto:help@example.org) [call](tel:+6512345678) [web](http://example.org)");
    expect(html).toContain('href="mailto:help@example.org"');
    expect(html).toContain('href="tel:+6512345678"');
    expect(html).toContain('href="http://example.org"');
  });

  it("keeps in-page popup anchors of guide HTML", () => {
    expect(sanitizeHtml('<p>See <a href="#a2j-popup-1">more</a></p><section id="a2j-popup-1">x</section>')).toBe(
      '<p>See <a href="#a2j-popup-1">more</a></p><section id="a2j-popup-1">x</section>',
    );
  });
});
