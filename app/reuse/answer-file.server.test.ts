import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadGuide } from "~/a2j";
import { MAX_ANSWER_FILE_BYTES, readAnswerFile } from "./answer-file.server";

const loaded = loadGuide(readFileSync("tests/fixtures/guides/en-court-form/Guide.json", "utf8"));
if (!loaded.ok) throw new Error(loaded.error);
const guide = loaded.guide;
const file = (text: string | Uint8Array<ArrayBuffer>, name = "answers.anx") => new File([text], name);

describe("answer files in", () => {
  it("reads an ANX and A2J JSON answers that fit", async () => {
    const anx = await readAnswerFile(file(`<?xml version="1.0"?><AnswerSet><Answer name="nom te"><TextValue>Ada</TextValue></Answer><Answer name="Delai NU"><NumValue>12</NumValue></Answer></AnswerSet>`), guide);
    expect(anx).toMatchObject({ ok: true, fitting: [{ name: "Nom TE", values: ["Ada"] }, { name: "Delai NU", values: [12] }] });
    const json = await readAnswerFile(file(JSON.stringify({ "nom te": { name: "Nom TE", type: "Text", repeating: false, values: [null, "Grace"] } }), "a.json"), guide);
    expect(json).toMatchObject({ ok: true, fitting: [{ name: "Nom TE", values: ["Grace"] }] });
  });

  it("lists every problem and takes nothing", async () => {
    const reading = await readAnswerFile(
      file(`<AnswerSet><Answer name="Nom TE"><TextValue>Ada</TextValue></Answer><Answer name="Favourite colour TE"><TextValue>blue</TextValue></Answer><Answer name="Delai NU"><NumValue>soon</NumValue></Answer></AnswerSet>`),
      guide,
    );
    expect(reading).toEqual({
      ok: false,
      problems: [
        { kind: "type", name: "Delai NU", expected: "Number", value: "soon" },
        { kind: "unknown", name: "Favourite colour TE" },
      ],
    });
  });

  it("refuses nothing chosen, too large, unreadable, a DOCTYPE and entities, and a file with no answers here", async () => {
    expect(await readAnswerFile(null, guide)).toEqual({ ok: false, refusal: "missing" });
    expect(await readAnswerFile(file(new Uint8Array(MAX_ANSWER_FILE_BYTES + 1)), guide)).toEqual({ ok: false, refusal: "tooLarge" });
    expect(await readAnswerFile(file(new Uint8Array([0xc3, 0x28, 0x3c])), guide)).toEqual({ ok: false, refusal: "unreadable" });
    expect(await readAnswerFile(file("%PDF-1.4"), guide)).toEqual({ ok: false, refusal: "unreadable" });
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><AnswerSet><Answer name="Nom TE"><TextValue>&lol2;</TextValue></Answer></AnswerSet>`;
    expect(await readAnswerFile(file(bomb), guide)).toEqual({ ok: false, refusal: "unreadable" });
    expect(await readAnswerFile(file("<AnswerSet><Answer name=\"Nom TE\"><TextValue>&lol;</TextValue></Answer>"), guide)).toEqual({ ok: false, refusal: "unreadable" });
    expect(await readAnswerFile(file("<AnswerSet></AnswerSet>"), guide)).toEqual({ ok: false, refusal: "empty" });
  });
});
