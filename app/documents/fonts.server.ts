/**
 * The embedded fonts: DejaVu (Sans, Serif, Sans Mono), TrueType, from the `dejavu-fonts-ttf` package. They
 * cover Latin with every accent, Greek, Cyrillic, Armenian, Georgian, Hebrew and much of Arabic; PDF readers
 * get the glyphs from the file, so the document prints the same everywhere. The files are read once per
 * process; the parsed font is not shared between documents (fontkit's subsetter changes the glyphs it caches,
 * which garbled the next document's text when we tried).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FontFamily } from "./layout";

export type FontStyle = "regular" | "bold" | "italic" | "bold-italic";

const FILES: Record<FontFamily, Record<FontStyle, string>> = {
  sans: { regular: "DejaVuSans.ttf", bold: "DejaVuSans-Bold.ttf", italic: "DejaVuSans-Oblique.ttf", "bold-italic": "DejaVuSans-BoldOblique.ttf" },
  serif: { regular: "DejaVuSerif.ttf", bold: "DejaVuSerif-Bold.ttf", italic: "DejaVuSerif-Italic.ttf", "bold-italic": "DejaVuSerif-BoldItalic.ttf" },
  mono: { regular: "DejaVuSansMono.ttf", bold: "DejaVuSansMono-Bold.ttf", italic: "DejaVuSansMono-Oblique.ttf", "bold-italic": "DejaVuSansMono-BoldOblique.ttf" },
};

let dir: string | null = null;
const cache = new Map<string, Buffer>();

function fontDir(): string {
  if (!dir) {
    const require = createRequire(import.meta.url);
    dir = path.join(path.dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
  }
  return dir;
}

/** The bytes of an embedded font. */
export function fontBytes(family: FontFamily, style: FontStyle): Buffer {
  const file = FILES[family][style];
  let bytes = cache.get(file);
  if (!bytes) {
    bytes = readFileSync(path.join(fontDir(), file));
    cache.set(file, bytes);
  }
  return bytes;
}

export function fontStyle(bold: boolean | undefined, italic: boolean | undefined): FontStyle {
  return bold && italic ? "bold-italic" : bold ? "bold" : italic ? "italic" : "regular";
}

export const FAMILIES: readonly FontFamily[] = ["sans", "serif", "mono"];
export const STYLES: readonly FontStyle[] = ["regular", "bold", "italic", "bold-italic"];
