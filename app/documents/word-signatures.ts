/**
 * Drawn signatures in Word documents (issue 30): docxtemplater prints a token where a drawn signature goes,
 * and the token becomes an inline picture here, the PNG added to the package (word/media, a relationship, the
 * png content type), with the words under it ("Signed electronically by …"). docxtemplater's image module is
 * not free software; an inline picture is a few elements of DrawingML. Outside the main document (a header or
 * footer, which have relationships of their own) the token becomes the words alone. Pure: the package is read
 * and written through the two functions handed in.
 */
import type { SignatureFill } from "./signatures";

export interface PackageFiles {
  read(name: string): string | null;
  write(name: string, text: string): void;
  writeBytes(name: string, bytes: Uint8Array): void;
  names(): string[];
}

/** The token docxtemplater prints for the n-th drawn signature (letters only: it survives XML escaping). */
export const drawnToken = (n: number) => `SIGNATUREPICTURE${n}XQZ`;

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const NS = {
  wp: "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
  a: "http://schemas.openxmlformats.org/drawingml/2006/main",
  pic: "http://schemas.openxmlformats.org/drawingml/2006/picture",
  r: "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
};

/** EMU per point. */
const EMU = 12700;

function picture(n: number, relId: string, fill: Extract<SignatureFill, { kind: "drawn" }>, size: { width: number; height: number }): string {
  const cx = Math.round(size.width * EMU);
  const cy = Math.round(size.height * EMU);
  const id = 5000 + n;
  return (
    `<w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="${id}" name="Signature ${n}" descr="${escape(fill.alt)}"/>` +
    `<wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr><a:graphic><a:graphicData uri="${NS.pic}"><pic:pic>` +
    `<pic:nvPicPr><pic:cNvPr id="${id}" name="signature${n}.png" descr="${escape(fill.alt)}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:embed="${relId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>`
  );
}

/** The namespaces the picture uses, declared on the document's root when it lacks them. */
function declareNamespaces(xml: string): string {
  return xml.replace(/<w:document\b[^>]*>/, (root) => {
    let out = root;
    for (const [prefix, uri] of Object.entries(NS)) if (!new RegExp(`xmlns:${prefix}=`).test(out)) out = out.replace(/>$/, ` xmlns:${prefix}="${uri}">`);
    return out;
  });
}

/** Replaces every drawn signature's token: a picture in the main document, the words elsewhere. */
export function placeDrawnSignatures(files: PackageFiles, drawn: { fill: Extract<SignatureFill, { kind: "drawn" }>; size: { width: number; height: number } }[]): void {
  if (!drawn.length) return;
  const main = "word/document.xml";
  for (const name of files.names()) {
    if (!/^word\/.*\.xml$/.test(name)) continue;
    const xml = files.read(name);
    if (!xml || !drawn.some((_, i) => xml.includes(drawnToken(i + 1)))) continue;
    let out = xml;
    drawn.forEach(({ fill }, i) => {
      const token = drawnToken(i + 1);
      const words = `<w:br/><w:t xml:space="preserve">${escape(fill.caption)}`;
      out = out.split(token).join(name === main ? `</w:t>__PICTURE${i + 1}__${words}` : `${escape(fill.alt)}</w:t>${words}`);
    });
    if (name === main) {
      const relsName = "word/_rels/document.xml.rels";
      let rels = files.read(relsName) ?? '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
      drawn.forEach(({ fill, size }, i) => {
        const n = i + 1;
        const relId = `rIdSignature${n}`;
        files.writeBytes(`word/media/signature${n}.png`, fill.png);
        if (!rels.includes(`Id="${relId}"`)) rels = rels.replace("</Relationships>", `<Relationship Id="${relId}" Type="${NS.r}/image" Target="media/signature${n}.png"/></Relationships>`);
        out = out.split(`__PICTURE${n}__`).join(picture(n, relId, fill, size));
      });
      files.write(relsName, rels);
      out = declareNamespaces(out);
      const types = files.read("[Content_Types].xml");
      if (types && !/Extension="png"/i.test(types)) files.write("[Content_Types].xml", types.replace("</Types>", '<Default Extension="png" ContentType="image/png"/></Types>'));
    }
    files.write(name, out);
  }
}
