// Makes the fonts of the printed documents: TrueType subsets of Arimo and Tinos (metric-compatible with Arial and
// Times New Roman, the fonts A2J DAT templates name) in app/documents/fonts/, with their licence. Run by
// `npm run fonts:subset`; commit what it writes. docs/decisions/0024-dat-layout-and-tagged-pdfs.md says why.
//
// Source: the Croscore fonts of Debian's `fonts-croscore` package (`apt-get install fonts-croscore`; version
// 1.33, SIL Open Font License 1.1, which allows embedding and subsetting). Only this script needs them: the
// subsets are committed. Tool: subset-font (HarfBuzz's hb-subset), as for the site's Roboto.
//
// The subsets keep the scripts these fonts draw well (Latin with every accent, Vietnamese, Greek, Cyrillic,
// Hebrew) and the punctuation and symbols documents use; anything else is drawn with DejaVu (the PDF writer
// picks the font per character). Hinting is dropped: a PDF is scaled, never drawn at a screen's pixel grid.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import subsetFont from "subset-font";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "app/documents/fonts");
const SOURCE = process.env.CROSCORE_DIR ?? "/usr/share/fonts/truetype/croscore";
const FACES = ["Regular", "Bold", "Italic", "BoldItalic"];
const FAMILIES = ["Arimo", "Tinos"];
// The features pdfkit's layout applies by default that these fonts have: kerning, ligatures, marks.
const FEATURES = ["kern", "liga", "ccmp", "locl", "mark", "mkmk"];

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const WANTED = [
  ...range(0x20, 0x7e),
  ...range(0xa0, 0x24f), // Latin-1, Latin Extended-A and -B
  ...range(0x259, 0x259),
  ...range(0x2b0, 0x36f), // spacing modifiers, combining marks
  ...range(0x370, 0x3ff), // Greek
  ...range(0x400, 0x52f), // Cyrillic
  ...range(0x590, 0x5ff), // Hebrew
  ...range(0x1e00, 0x1eff), // Latin Extended Additional (Vietnamese)
  ...range(0x2000, 0x206f), // punctuation
  ...range(0x20a0, 0x20cf), // currencies
  ...range(0x2100, 0x214f), // letterlike (№, ™, ℅)
  ...range(0x2150, 0x218f), // number forms
  ...range(0x2190, 0x21ff), // arrows
  0x2212, 0x2219, 0x221e, 0x2248, 0x2260, 0x2264, 0x2265,
  ...range(0x25a0, 0x25ff), // geometric shapes (list markers ▪ ◦)
  0xfb01, 0xfb02,
];

mkdirSync(outDir, { recursive: true });
for (const family of FAMILIES) {
  for (const face of FACES) {
    const source = readFileSync(path.join(SOURCE, `${family}-${face}.ttf`));
    const ttf = await subsetFont(source, String.fromCodePoint(...WANTED), { targetFormat: "truetype", keepFeatures: FEATURES, noHinting: true });
    writeFileSync(path.join(outDir, `${family}-${face}.ttf`), ttf);
    console.log(`${family}-${face}.ttf: ${ttf.length} bytes (source ${source.length})`);
  }
}
// The OFL text is the one Roboto ships with (app/styles/fonts/LICENSE), under these fonts' own copyright line.
const ofl = readFileSync(path.join(root, "app/styles/fonts/LICENSE"), "utf8");
const body = ofl.slice(ofl.indexOf("This Font Software is licensed"));
writeFileSync(
  path.join(outDir, "LICENSE"),
  `Arimo and Tinos: Copyright 2010 Google Inc. All Rights Reserved. Version 1.33 (Debian fonts-croscore 20201225),\nsubset by scripts/subset-pdf-fonts.mjs.\n\n${body}`,
);
console.log(`Wrote ${path.relative(root, outDir)}/ and LICENSE`);

