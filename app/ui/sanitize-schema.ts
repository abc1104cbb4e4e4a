import { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";

/**
 * What rendered content may contain: GitHub's safe subset, plus a few harmless elements used by our legal
 * pages. No scripts, styles, event handlers, frames or forms; links and images only over http(s) (links
 * also mailto and tel), so javascript: and data: URLs are dropped.
 */
export const sanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  tagNames: [...(defaultSchema.tagNames ?? []), "abbr", "section", "article", "aside"],
  attributes: {
    ...defaultSchema.attributes,
    abbr: ["title"],
  },
  protocols: {
    ...defaultSchema.protocols,
    href: ["http", "https", "mailto", "tel"],
    src: ["http", "https"],
    cite: ["http", "https"],
    longDesc: ["http", "https"],
  },
};

/** A small map that forgets its oldest entry past `max`: rendered content is reused, not rebuilt. */
export function memoize(render: (input: string) => string, max = 500): (input: string) => string {
  const cache = new Map<string, string>();
  return (input) => {
    const hit = cache.get(input);
    if (hit !== undefined) return hit;
    const output = render(input);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string);
    cache.set(input, output);
    return output;
  };
}
