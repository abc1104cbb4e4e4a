import rehypeParse from "rehype-parse";
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import { unified } from "unified";
import { memoize, sanitizeSchema } from "./sanitize-schema";

// Guide authors write HTML: it is shown only after the same sanitising as our markdown content.
const processor = unified()
  .use(rehypeParse, { fragment: true })
  .use(rehypeSanitize, {
    ...sanitizeSchema,
    // In-page anchors (#popup-…) must keep their exact ids.
    clobberPrefix: "",
  })
  .use(rehypeStringify);

const sanitize = memoize((html: string) => String(processor.processSync(html)), 2000);

/** Author HTML made safe to render: no scripts, handlers, styles or unsafe URLs. */
export function sanitizeHtml(html: string): string {
  return html ? sanitize(html) : "";
}
