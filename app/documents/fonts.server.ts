/**
 * The embedded fonts. Text templates print in Arimo and Tinos (metric-compatible with Arial and Times New Roman,
 * the fonts A2J DAT documents are set in, so lines break where DAT breaks them), subset by
 * `npm run fonts:subset` into `app/documents/fonts/` (SIL OFL 1.1, see its LICENSE). DejaVu (Sans, Serif, Sans
 * Mono, from the `dejavu-fonts-ttf` package) draws what those lack (Armenian, Georgian, symbols) and the
 * monospace family, and the overlays' non-WinAnsi text. One fontkit reads them all: pdfkit's own, which pdf-lib
 * embeds with too (decision 0038). The files are read once per process; the parsed font is not shared between
 * documents (fontkit's subsetter changes the glyphs it caches, which garbled the next document's text when we
 * tried). Only the character set of each file is kept (decision 0024).
 *
 * Tamil, Arabic and Chinese have fonts of their own (decision 0046): Noto Sans Tamil, Noto Naskh Arabic and
 * Noto Sans CJK SC (simplified, with Big5's traditional characters), upright and bold (italic text prints
 * upright: these scripts have no italic). Their characters go to them in every family.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as fontkit from "fontkit";
import type { FontFamily } from "./layout";
import type { ScriptFont } from "./scripts";

export type FontStyle = "regular" | "bold" | "italic" | "bold-italic";

const DEJAVU: Record<FontFamily, Record<FontStyle, string>> = {
  sans: { regular: "DejaVuSans.ttf", bold: "DejaVuSans-Bold.ttf", italic: "DejaVuSans-Oblique.ttf", "bold-italic": "DejaVuSans-BoldOblique.ttf" },
  serif: { regular: "DejaVuSerif.ttf", bold: "DejaVuSerif-Bold.ttf", italic: "DejaVuSerif-Italic.ttf", "bold-italic": "DejaVuSerif-BoldItalic.ttf" },
  mono: { regular: "DejaVuSansMono.ttf", bold: "DejaVuSansMono-Bold.ttf", italic: "DejaVuSansMono-Oblique.ttf", "bold-italic": "DejaVuSansMono-BoldOblique.ttf" },
};

const FACE: Record<FontStyle, string> = { regular: "Regular", bold: "Bold", italic: "Italic", "bold-italic": "BoldItalic" };
/** The Arial / Times look-alikes; the monospace family has none of its own (DejaVu Sans Mono). */
const PRIMARY: Record<FontFamily, string | null> = { sans: "Arimo", serif: "Tinos", mono: null };

let dejavuDir: string | null = null;
let ownDir: string | null = null;
const cache = new Map<string, Buffer>();
const coverage = new Map<string, Set<number>>();

function dejavu(): string {
  if (!dejavuDir) {
    const require = createRequire(import.meta.url);
    dejavuDir = path.join(path.dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf");
  }
  return dejavuDir;
}

/** `app/documents/fonts/`, found from this module in the sources and from `build/server/` when bundled. */
function own(): string {
  if (!ownDir) {
    let dir = path.dirname(fileURLToPath(import.meta.url));
    for (let i = 0; i < 6; i++) {
      for (const candidate of [path.join(dir, "fonts"), path.join(dir, "app/documents/fonts")]) {
        if (existsSync(path.join(candidate, "Arimo-Regular.ttf"))) return (ownDir = candidate);
      }
      dir = path.dirname(dir);
    }
    throw new Error("the document fonts (app/documents/fonts) are missing");
  }
  return ownDir;
}

function read(file: string): Buffer {
  let bytes = cache.get(file);
  if (!bytes) {
    bytes = readFileSync(file);
    cache.set(file, bytes);
  }
  return bytes;
}

/** The bytes of DejaVu in a family and style (the fallback, and the overlays' font). */
export function fontBytes(family: FontFamily, style: FontStyle): Buffer {
  return read(path.join(dejavu(), DEJAVU[family][style]));
}

/** The bytes of a family's main font (Arimo, Tinos), or null when DejaVu is its main font. */
export function primaryFontBytes(family: FontFamily, style: FontStyle): Buffer | null {
  const name = PRIMARY[family];
  return name ? read(path.join(own(), `${name}-${FACE[style]}.ttf`)) : null;
}

const SCRIPT_FILES: Record<ScriptFont, (bold: boolean) => string> = {
  tamil: (bold) => `NotoSansTamil-${bold ? "Bold" : "Regular"}.ttf`,
  arabic: (bold) => `NotoNaskhArabic-${bold ? "Bold" : "Regular"}.ttf`,
  cjk: (bold) => `NotoSansCJKsc-${bold ? "Bold" : "Regular"}.otf`,
};

export const SCRIPT_FONTS: readonly ScriptFont[] = ["tamil", "arabic", "cjk"];

/** The bytes of a script's own font in a style (italic prints upright). */
export function scriptFontBytes(script: ScriptFont, style: FontStyle): Buffer {
  return read(path.join(own(), SCRIPT_FILES[script](style === "bold" || style === "bold-italic")));
}

/** The code points a script's font has a glyph for (read once per process). */
export function scriptCoverage(script: ScriptFont, style: FontStyle): Set<number> {
  const bold = style === "bold" || style === "bold-italic";
  const key = `${script}-${bold}`;
  let set = coverage.get(key);
  if (!set) {
    const font = fontkit.create(scriptFontBytes(script, style));
    set = new Set(("fonts" in font ? font.fonts[0]! : font).characterSet);
    coverage.set(key, set);
  }
  return set;
}

/** The code points a family's main font has a glyph for (read once per process), or null without one. */
export function primaryCoverage(family: FontFamily, style: FontStyle): Set<number> | null {
  const name = PRIMARY[family];
  if (!name) return null;
  const key = `${name}-${style}`;
  let set = coverage.get(key);
  if (!set) {
    const font = fontkit.create(primaryFontBytes(family, style)!);
    set = new Set(("fonts" in font ? font.fonts[0]! : font).characterSet);
    coverage.set(key, set);
  }
  return set;
}

export function fontStyle(bold: boolean | undefined, italic: boolean | undefined): FontStyle {
  return bold && italic ? "bold-italic" : bold ? "bold" : italic ? "italic" : "regular";
}

export const FAMILIES: readonly FontFamily[] = ["sans", "serif", "mono"];
export const STYLES: readonly FontStyle[] = ["regular", "bold", "italic", "bold-italic"];
