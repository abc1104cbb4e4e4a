// Makes the fonts of the printed documents in app/documents/fonts/, with their licence. Run by
// `npm run fonts:subset`; commit what it writes. Decisions 0024 (Arimo, Tinos) and 0046 (the other scripts) say why.
//
// - Arimo and Tinos (metric-compatible with Arial and Times New Roman, the fonts A2J DAT templates name), from
//   Debian's `fonts-croscore` 1.33: Latin with every accent, Vietnamese, Greek, Cyrillic, Hebrew, and the
//   punctuation and symbols documents use. Only the features pdfkit applies to Latin text are kept.
// - Noto Sans Tamil and Noto Naskh Arabic, from Debian's `fonts-noto-core` (20201225): the script's whole block,
//   with every OpenType feature hb-subset keeps by default (Tamil's conjuncts and reordered vowel signs, Arabic's
//   joining forms, ligatures and mark positioning need them: never the Latin list above).
// - Noto Sans CJK SC (Regular, Bold), from Debian's `fonts-noto-cjk` (20220127; the SC face of its collection):
//   GB 2312's 6,763 hanzi, Big5's 5,401 level-1 characters (traditional), CJK punctuation, full-width forms,
//   kana and Bopomofo. Its glyphs are CFF outlines: the subset stays an OpenType (CFF) file. Only the features
//   horizontal text uses are kept (see CJK_FEATURES).
//
// All SIL Open Font License 1.1, which allows embedding and subsetting. Only this script needs the sources
// (`apt-get install fonts-croscore fonts-noto-core fonts-noto-cjk`). Tool: subset-font (HarfBuzz's hb-subset).
// Anything else is drawn with DejaVu (the PDF writer picks the font per character). Hinting is dropped: a PDF
// is scaled, never drawn at a screen's pixel grid.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import subsetFont from "subset-font";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "app/documents/fonts");
const SOURCE = process.env.CROSCORE_DIR ?? "/usr/share/fonts/truetype/croscore";
const NOTO = process.env.NOTO_DIR ?? "/usr/share/fonts/truetype/noto";
const NOTO_CJK = process.env.NOTO_CJK_DIR ?? "/usr/share/fonts/opentype/noto";
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

/** Characters common to every script's text (spaces, joiners, digits, punctuation), so a run is not cut by them. */
const COMMON = [...range(0x20, 0x7e), 0xa0, 0xad, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2010, 0x2011, 0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2026, 0x25cc];
const TAMIL = [...COMMON, ...range(0x0b80, 0x0bff), 0x0964, 0x0965, ...range(0x11fc0, 0x11fff)];
const ARABIC = [...COMMON, ...range(0x0600, 0x06ff), ...range(0x0750, 0x077f), ...range(0x08a0, 0x08ff), ...range(0xfb50, 0xfdff), ...range(0xfe70, 0xfeff)];

/** The characters of a two-byte legacy encoding's rows and cells, decoded by Node's ICU. */
function decodeTable(encoding, leads, trails) {
  const decoder = new TextDecoder(encoding, { fatal: false });
  const out = [];
  for (const lead of leads)
    for (const trail of trails) {
      const ch = decoder.decode(new Uint8Array([lead, trail]));
      const cp = ch.codePointAt(0);
      if (ch.length === 1 && cp !== 0xfffd) out.push(cp);
    }
  return out;
}
// GB 2312: symbols rows 0xA1–0xA9, hanzi rows 0xB0–0xF7 (6,763). Big5 level 1: 0xA440–0xC67E (5,401 hanzi),
// after its symbols (0xA140–0xA3BF).
const GB2312 = decodeTable("gbk", [...range(0xa1, 0xa9), ...range(0xb0, 0xf7)], range(0xa1, 0xfe));
const BIG5 = [...decodeTable("big5", range(0xa1, 0xc5), [...range(0x40, 0x7e), ...range(0xa1, 0xfe)]), ...decodeTable("big5", [0xc6], range(0x40, 0x7e))];
const CJK = [
  ...COMMON,
  ...GB2312,
  ...BIG5,
  ...range(0x3000, 0x303f), // CJK punctuation
  ...range(0x3040, 0x30ff), // kana
  ...range(0x3100, 0x312f), // Bopomofo
  ...range(0xff00, 0xffef), // full-width and half-width forms
];

// Horizontal Chinese needs no substitution but the font's composition (ccmp) and spacing (kern); its other
// features (locl's Japanese, Korean and traditional forms, vertical forms) would double the file with glyphs a
// horizontal Simplified face never draws (measured: 4.3 MB with hb-subset's defaults, 2.2 MB with these).
const CJK_FEATURES = ["ccmp", "kern", "liga", "mark", "mkmk"];

/** One face of a font collection (.ttc) as a font file of its own: its table directory and its tables. */
function faceOfCollection(ttc, index) {
  const faceOffset = ttc.readUInt32BE(12 + 4 * index);
  const numTables = ttc.readUInt16BE(faceOffset + 4);
  const tables = [];
  for (let i = 0; i < numTables; i++) {
    const record = faceOffset + 12 + 16 * i;
    tables.push({ record: ttc.subarray(record, record + 16), offset: ttc.readUInt32BE(record + 8), length: ttc.readUInt32BE(record + 12) });
  }
  const headerLength = 12 + 16 * numTables;
  const padded = (n) => (n + 3) & ~3;
  const out = Buffer.alloc(headerLength + tables.reduce((sum, t) => sum + padded(t.length), 0));
  ttc.copy(out, 0, faceOffset, faceOffset + 12);
  let at = headerLength;
  tables.forEach((t, i) => {
    t.record.copy(out, 12 + 16 * i);
    out.writeUInt32BE(at, 12 + 16 * i + 8);
    ttc.copy(out, at, t.offset, t.offset + t.length);
    at += padded(t.length);
  });
  return out;
}

/** The index of a face in a collection, by its PostScript name (Noto Sans CJK's order: JP, KR, SC, TC, HK, …). */
function faceIndex(ttc, postscriptName) {
  const count = ttc.readUInt32BE(8);
  for (let i = 0; i < count; i++) {
    const face = faceOfCollection(ttc, i);
    if (face.includes(Buffer.from(postscriptName, "utf16le").swap16()) || face.includes(Buffer.from(postscriptName, "latin1"))) return i;
  }
  throw new Error(`no face ${postscriptName} in the collection`);
}

const sizes = [];
async function write(name, source, wanted, options) {
  const bytes = await subsetFont(source, String.fromCodePoint(...new Set(wanted)), { targetFormat: "truetype", noHinting: true, ...options });
  writeFileSync(path.join(outDir, name), bytes);
  sizes.push(`${name}: ${bytes.length} bytes (source ${source.length})`);
  console.log(sizes.at(-1));
}

mkdirSync(outDir, { recursive: true });
for (const family of FAMILIES) {
  for (const face of FACES) {
    await write(`${family}-${face}.ttf`, readFileSync(path.join(SOURCE, `${family}-${face}.ttf`)), WANTED, { keepFeatures: FEATURES });
  }
}
for (const face of ["Regular", "Bold"]) {
  await write(`NotoSansTamil-${face}.ttf`, readFileSync(path.join(NOTO, `NotoSansTamil-${face}.ttf`)), TAMIL);
  await write(`NotoNaskhArabic-${face}.ttf`, readFileSync(path.join(NOTO, `NotoNaskhArabic-${face}.ttf`)), ARABIC);
  const collection = readFileSync(path.join(NOTO_CJK, `NotoSansCJK-${face}.ttc`));
  const sc = faceOfCollection(collection, faceIndex(collection, `NotoSansCJKsc-${face}`));
  await write(`NotoSansCJKsc-${face}.otf`, sc, CJK, { keepFeatures: CJK_FEATURES });
}
console.log(`CJK characters asked for: GB 2312 ${GB2312.length}, Big5 ${BIG5.length}, together ${new Set(CJK).size}`);

// The OFL text is the one Roboto ships with (app/styles/fonts/LICENSE), under each font's own copyright line.
const ofl = readFileSync(path.join(root, "app/styles/fonts/LICENSE"), "utf8");
const body = ofl.slice(ofl.indexOf("This Font Software is licensed"));
writeFileSync(
  path.join(outDir, "LICENSE"),
  [
    "Arimo and Tinos: Copyright 2010 Google Inc. All Rights Reserved. Version 1.33 (Debian fonts-croscore 20201225).",
    "Noto Sans Tamil: Copyright 2017 Google Inc. All Rights Reserved. Version 2.001 (Debian fonts-noto-core 20201225).",
    "Noto Naskh Arabic: Copyright 2019-2020 Google LLC. All Rights Reserved. Version 2.004 (Debian fonts-noto-core 20201225).",
    "Noto Sans CJK SC: (c) 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'. Version 2.004",
    "(Debian fonts-noto-cjk 20220127).",
    "All subset by scripts/subset-pdf-fonts.mjs. Each is licensed under the SIL Open Font License, Version 1.1:",
    "",
    body,
  ].join("\n"),
);
console.log(`Wrote ${path.relative(root, outDir)}/ and LICENSE`);
