// Makes the site's Roboto: small WOFF2 subsets in app/styles/fonts/ and the @font-face rules that load them
// (app/styles/fonts/fonts.css). Run `npm run fonts:subset` after changing the characters or weights below, and
// commit what it writes. docs/decisions/0012-fonts.md says why it is done this way.
//
// Source: the variable Roboto (wght axis) of @fontsource-variable/roboto, a devDependency. Tool: subset-font
// (HarfBuzz's hb-subset compiled to WebAssembly, inside its registry package) and harfbuzzjs to read what each
// file covers.
//
// Every page needs the "core" file: printable ASCII and the punctuation the product's text uses; French, Spanish
// and Welsh pages the "letters" file too (Latin-1's accented letters). The other files hold the rest of
// fontsource's Latin, Latin Extended and Vietnamese glyphs (accented names, other currencies),
// and a browser fetches one only when a page contains one of its characters (unicode-range). Characters in none
// of them (Greek, Cyrillic, CJK, Tamil, symbols) come from the system fonts in the font-family list. The ranges
// never overlap and are exactly the characters each file has a glyph for, so nothing renders as a missing-glyph box.
//
// Weights: the CSS uses 400, 500 and 700, so the variable font is cut down to that range of its wght axis (one file
// serves all three; three static instances would weigh more on any page that uses two of them). Italic has no
// file: the browser slants the upright (Roboto's italic is close to an oblique), used only for a line or two.
// Hinting is dropped (only Windows' ClearType uses it; it was a fifth of the bytes).
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Blob, Face } from "harfbuzzjs";
import subsetFont from "subset-font";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "app/styles/fonts");
const require = createRequire(import.meta.url);
const fontsource = path.dirname(require.resolve("@fontsource-variable/roboto/package.json"));
const source = (subset) => readFileSync(path.join(fontsource, "files", `roboto-${subset}-wght-normal.woff2`));

const WEIGHTS = { min: 400, max: 700 };
// The features a browser applies by default (the font has no others of these): kerning, ligatures, marks.
const FEATURES = ["kern", "liga", "ccmp", "locl", "mark", "mkmk"];

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
// UI strings, db/seed content and what people type most: ASCII, no-break and soft hyphen, £ € § © « »,
// en and em dashes, typographic quotes, bullet, ellipsis, single angle quotes (the breadcrumb's ›).
const CORE = [...range(0x20, 0x7e), 0xa0, 0xa3, 0xa7, 0xa9, 0xab, 0xad, 0xbb, 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2026, 0x2039, 0x203a, 0x20ac];

/** The code points a font maps to a glyph (its cmap), read by HarfBuzz from the font as TrueType. */
async function coverage(font) {
  const ttf = await subsetFont(font, null, { keepAllGlyphs: true, targetFormat: "truetype" });
  return [...new Face(new Blob(ttf)).collectUnicodes()];
}

function unicodeRange(codePoints) {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    const hex = (n) => n.toString(16).toUpperCase();
    parts.push(i === j ? `U+${hex(sorted[i])}` : `U+${hex(sorted[i])}-${hex(sorted[j])}`);
    i = j;
  }
  return parts.join(", ");
}

// The small accented letters of Latin-1, the capitals that begin French words most (À É Ç) and Spanish's ¡ ¿: French,
// Spanish and Welsh pages need them on every page. Kept apart from Latin-1's other capitals and symbols, they keep
// those pages' first visit within 30 kB (docs/decisions/0043-languages.md).
const LETTERS = [0xa1, 0xbf, 0xc0, 0xc7, 0xc9, ...range(0xdf, 0xf6), ...range(0xf8, 0xff)];
// Welsh's ŵ and ŷ (with their capitals and the grave, acute and diaeresis forms of w and y): without them a Welsh
// page would fetch all of Latin Extended.
const WELSH = [0x174, 0x175, 0x176, 0x177, 0x1e80, 0x1e81, 0x1e82, 0x1e83, 0x1e84, 0x1e85, 0x1ef2, 0x1ef3];

// In order of priority: a code point goes to the first file whose source has it.
const files = [
  { name: "roboto-core", from: "latin", only: CORE },
  { name: "roboto-letters", from: "latin", only: LETTERS },
  { name: "roboto-latin", from: "latin" },
  { name: "roboto-welsh", from: "latin-ext", only: WELSH },
  { name: "roboto-latin-ext", from: "latin-ext" },
  { name: "roboto-vietnamese", from: "vietnamese" },
];

mkdirSync(outDir, { recursive: true });
const taken = new Set();
const rules = [];
for (const file of files) {
  const font = source(file.from);
  const has = new Set(await coverage(font));
  // Control and invisible formatting characters need no glyph of ours.
  const wanted = (file.only ?? [...has]).filter((cp) => has.has(cp) && !taken.has(cp) && cp >= 0x20 && cp !== 0xfeff && !(cp >= 0x200b && cp <= 0x200f));
  const missing = (file.only ?? []).filter((cp) => !has.has(cp));
  if (missing.length) throw new Error(`${file.name}: the source has no glyph for ${unicodeRange(missing)}`);
  const woff2 = await subsetFont(font, String.fromCodePoint(...wanted), {
    targetFormat: "woff2",
    variationAxes: { wght: WEIGHTS },
    keepFeatures: FEATURES,
    noHinting: true,
  });
  // The subset may map a few more code points than asked (HarfBuzz keeps what the glyphs need); the range
  // lists exactly what the file has, minus what a file before it already serves.
  const got = (await coverage(woff2)).filter((cp) => wanted.includes(cp));
  for (const cp of got) taken.add(cp);
  writeFileSync(path.join(outDir, `${file.name}.woff2`), woff2);
  console.log(`${file.name}.woff2: ${woff2.length} bytes, ${got.length} characters`);
  rules.push(`@font-face {
  font-family: "Roboto Variable";
  font-style: normal;
  font-display: swap;
  font-weight: ${WEIGHTS.min} ${WEIGHTS.max};
  src: url("./${file.name}.woff2") format("woff2");
  unicode-range: ${unicodeRange(got)};
}`);
}
writeFileSync(
  path.join(outDir, "fonts.css"),
  `/* Generated by scripts/subset-fonts.mjs (npm run fonts:subset): do not edit by hand.
   Roboto (SIL Open Font License 1.1, ./LICENSE), variable wght ${WEIGHTS.min}–${WEIGHTS.max}, in unicode-range subsets. */
${rules.join("\n\n")}
`,
);
copyFileSync(path.join(fontsource, "LICENSE"), path.join(outDir, "LICENSE"));
console.log(`Wrote ${path.relative(root, outDir)}/fonts.css and LICENSE`);
