import { describe, expect, it } from "vitest";
import type { Guide, GuideVar, VarType } from "~/a2j";
import { signaturePng } from "./test-png";
import { blocksText, richTextBlocks } from "./layout";
import { fillText, pngSize, SIGNATURE_LINE, signatureFills, signatureMarkers } from "./signatures";

const vars = (...list: [string, VarType, boolean?][]): Pick<Guide, "vars"> => ({
  vars: Object.fromEntries(list.map(([name, type, repeating]): [string, GuideVar] => [name.toLowerCase(), { name, type, repeating: repeating ?? false, comment: "" }])),
});

describe("signature markers", () => {
  it("a Text variable named '… signature' marks a place, '… signature date' its date; the first is the person's own", () => {
    const guide = vars(
      ["User name TE", "Text"],
      ["User signature", "Text"],
      ["User signature date", "Text"],
      ["Other parent SIGNATURE", "Text"],
      ["Other parent signature date", "Date"],
      ["Witness signature", "Text"],
    );
    expect(signatureMarkers(guide)).toEqual([
      { variable: "User signature", dateVariable: "User signature date", label: "User", ownersOwn: true },
      { variable: "Other parent SIGNATURE", dateVariable: "Other parent signature date", label: "Other parent", ownersOwn: false },
      { variable: "Witness signature", dateVariable: null, label: "Witness", ownersOwn: false },
    ]);
  });

  it("is not fooled by other types, repeating variables, a bare 'Signature' or names that only contain the word", () => {
    const guide = vars(["Signature", "Text"], ["Has signature TF", "TF"], ["Signature date", "Text"], ["Kid signature", "Text", true], ["Signatures TE", "Text"], ["Client signature TE", "Text"], ["Tenant signature", "MC"]);
    expect(signatureMarkers(guide)).toEqual([]);
  });

  it("the demo guides carry them: one signer in the letter of demand, two in the rental bond letter", async () => {
    const { readFileSync } = await import("node:fs");
    const { loadGuide } = await import("~/a2j");
    const load = (id: string) => {
      const g = loadGuide(readFileSync(`db/seed/guides/${id}/Guide.json`, "utf8"));
      if (!g.ok) throw new Error(g.error);
      return g.guide;
    };
    expect(signatureMarkers(load("letter-of-demand"))).toEqual([{ variable: "User signature", dateVariable: "User signature date", label: "User", ownersOwn: true }]);
    expect(signatureMarkers(load("tenancy-deposit")).map((m) => [m.label, m.ownersOwn, m.dateVariable])).toEqual([
      ["Tenant", true, "Tenant signature date"],
      ["Landlord or agent", false, "Landlord or agent signature date"],
    ]);
  });
});

describe("what a signature place prints", () => {
  const markers = signatureMarkers(vars(["User signature", "Text"], ["User signature date", "Text"], ["Other parent signature", "Text"], ["Other parent signature date", "Text"]));
  const day = (at: Date) => `${at.getUTCDate()} November ${at.getUTCFullYear()}`;
  const at = new Date("2026-11-27T10:00:00Z");

  it("a line to sign on until signed; typed: /s/ and the words; drawn: the image; the date in its place", () => {
    const png = signaturePng();
    const fills = signatureFills(
      markers,
      [
        { variable: "user SIGNATURE", name: "  Ada   Lovelace ", email: "ada@example.org", method: "typed", signedAt: at },
        { variable: "Other parent signature", name: "Charles Babbage", email: "cb@example.org", method: "drawn", image: png, signedAt: at },
      ],
      day,
    );
    expect(fills.get("user signature")).toEqual({ kind: "typed", signature: "/s/ Ada Lovelace", caption: "Signed electronically by Ada Lovelace on 27 November 2026" });
    expect(fills.get("user signature date")).toEqual({ kind: "date", text: "27 November 2026" });
    expect(fills.get("other parent signature")).toMatchObject({ kind: "drawn", width: 240, height: 80, alt: "Signature of Charles Babbage", caption: "Signed electronically by Charles Babbage on 27 November 2026" });
    const unsigned = signatureFills(markers, [], day);
    expect([...unsigned.values()].map(fillText)).toEqual([SIGNATURE_LINE, SIGNATURE_LINE, SIGNATURE_LINE, SIGNATURE_LINE]);
    // A drawing that is not a PNG prints as typed.
    const broken = signatureFills(markers, [{ variable: "User signature", name: "Ada", email: "a@example.org", method: "drawn", image: new Uint8Array([1, 2, 3]), signedAt: at }], day);
    expect(broken.get("user signature")).toMatchObject({ kind: "typed", signature: "/s/ Ada" });
  });

  it("in a text template: the typed signature and its words on two lines, a drawn one as an image block", () => {
    const html = '<p>Signed: <a2j-variable name="User signature"></a2j-variable></p><p>Date: <a2j-variable name="User signature date"></a2j-variable></p><p><a2j-variable name="Other parent signature"></a2j-variable></p>';
    const none = richTextBlocks(html, { answers: {}, size: 12, fills: signatureFills(markers, [], day) });
    expect(blocksText(none)).toBe(`Signed: ${SIGNATURE_LINE}\nDate: ${SIGNATURE_LINE}\n${SIGNATURE_LINE}`);
    const signed = richTextBlocks(html, {
      answers: {},
      size: 12,
      fills: signatureFills(
        markers,
        [
          { variable: "User signature", name: "Ada Lovelace", email: "a@example.org", method: "typed", signedAt: at },
          { variable: "Other parent signature", name: "Charles Babbage", email: "c@example.org", method: "drawn", image: signaturePng(), signedAt: at },
        ],
        day,
      ),
    });
    expect(blocksText(signed)).toBe(
      "Signed: /s/ Ada Lovelace\nSigned electronically by Ada Lovelace on 27 November 2026\nDate: 27 November 2026\n[Signature of Charles Babbage]\nSigned electronically by Charles Babbage on 27 November 2026",
    );
    expect(signed.find((b) => b.kind === "image")).toMatchObject({ width: 162, height: 54 });
  });

  it("reads a PNG's size and refuses what is not one", () => {
    expect(pngSize(signaturePng(300, 100))).toEqual({ width: 300, height: 100 });
    expect(pngSize(new TextEncoder().encode("GIF89a………………………………………………………"))).toBeNull();
  });
});
