import type { Page } from "@playwright/test";

/**
 * The words of a page rendered in the pseudo-language (en-XA) that are not in a catalogue: every message of ours
 * shows accented inside ⟦ ⟧, so what is left outside the brackets is plain text nobody translated. Skipped: text
 * in another language than the page's (the organisation's content and guides carry their own `lang`), text marked
 * `translate="no"` (names, emails, codes), scripts and styles. Attributes people hear (aria-label, title, alt,
 * placeholder, a button's value) are checked too. Returns "where: words" lines; [] when all is translated.
 */
export async function untranslatedWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const pageLang = document.documentElement.lang;
    const skipped = (element: Element | null) => {
      for (let at = element; at; at = at.parentElement) {
        if (at.getAttribute("translate") === "no") return true;
        if (["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(at.tagName)) return true;
        if (at.hasAttribute("lang")) return at.getAttribute("lang") !== pageLang;
      }
      return false;
    };
    // The page's text in document order, with skipped parts left out, then every ⟦…⟧ removed.
    const pieces: { text: string; where: string }[] = [];
    const describe = (element: Element) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${element.className && typeof element.className === "string" ? `.${element.className.split(" ")[0]}` : ""}`;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || skipped(node.parentElement)) continue;
      pieces.push({ text: node.textContent, where: describe(node.parentElement!) });
    }
    for (const element of document.querySelectorAll("[aria-label], [title], [alt], [placeholder], input[type=submit][value], input[type=button][value]")) {
      if (skipped(element)) continue;
      for (const name of ["aria-label", "title", "alt", "placeholder", "value"]) {
        const value = element.getAttribute(name);
        if (value?.trim() && (name !== "value" || element.matches("input[type=submit], input[type=button]"))) pieces.push({ text: `\u0001${value}\u0002`, where: `${describe(element)}[${name}]` });
      }
    }
    const title = document.title;
    if (title) pieces.push({ text: `\u0001${title}\u0002`, where: "title" });
    const problems: string[] = [];
    let depth = 0;
    for (const piece of pieces) {
      let outside = "";
      for (const char of piece.text) {
        if (char === "⟦") depth++;
        else if (char === "⟧") depth = Math.max(0, depth - 1);
        else if (char === "\u0001" || char === "\u0002") depth = 0;
        else if (depth === 0) outside += char;
      }
      // Two or more Latin letters outside every message: a word of ours that is not in a catalogue.
      const words = outside.match(/[A-Za-z]{2,}[A-Za-z'’-]*/g);
      if (words) problems.push(`${piece.where}: ${words.join(" ")}`);
    }
    return problems;
  });
}

/**
 * What sticks out sideways when the page, as it is now, is shown 320 px wide (the pseudo-language's words are 40 %
 * longer than English's): the page itself scrolling sideways, or an element reaching past the right edge outside
 * anything that scrolls (a wide table's scroller is allowed). The viewport is put back as it was. [] when nothing does.
 */
export async function overflowAt320(page: Page): Promise<string[]> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 320, height: before?.height ?? 720 });
  try {
    return await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const found: string[] = [];
      if (document.documentElement.scrollWidth > width + 1) found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px for ${width}`);
      const clipped = (element: Element) => {
        for (let at = element.parentElement; at && at !== document.body; at = at.parentElement) {
          if (getComputedStyle(at).overflowX !== "visible") return true;
        }
        return false;
      };
      for (const element of document.body.querySelectorAll("*")) {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || box.right <= width + 1 || clipped(element)) continue;
        const style = getComputedStyle(element);
        if (style.visibility === "hidden" || style.position === "fixed") continue;
        found.push(`${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? `.${element.className.split(" ")[0]}` : ""} reaches ${Math.round(box.right)} px: "${(element.textContent ?? "").trim().slice(0, 40)}"`);
        if (found.length >= 8) break;
      }
      return found;
    });
  } finally {
    if (before) await page.setViewportSize(before);
  }
}
