import type { Element, Root } from "hast";
import rehypeRaw from "rehype-raw";
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { memoize, sanitizeSchema } from "./sanitize-schema";

// The page's title is its only h1: headings inside content start one level down.
function demoteH1() {
  return (tree: Root) => {
    const visit = (node: Root | Element) => {
      for (const child of node.children) {
        if (child.type !== "element") continue;
        if (child.tagName === "h1") child.tagName = "h2";
        visit(child);
      }
    };
    visit(tree);
  };
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(demoteH1)
  .use(rehypeSanitize, sanitizeSchema)
  .use(rehypeStringify);

/** Markdown (which may carry raw HTML) to sanitised HTML, on the server; the same text is rendered once. */
export const markdownToHtml = memoize((markdown: string) => String(processor.processSync(markdown)), 200);
