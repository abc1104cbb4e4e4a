import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { answersFromANX, answersFromJSON, answersToANX, checkAnswers, choicesOf, loadGuide, questionLabel, withAnswers, type Guide } from "./index";

function fixture(name: string): Guide {
  const loaded = loadGuide(readFileSync(`tests/fixtures/guides/${name}/Guide.json`, "utf8"));
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.guide;
}

const claims = fixture("en-small-claims");
const court = fixture("en-court-form");
const complete = readFileSync("tests/fixtures/guides/scenarios/en-small-claims/complete.json", "utf8");

describe("answers checked against a guide", () => {
  it("takes the variables another guide shares, and names the rest as unknown", () => {
    const answers = answersFromJSON(complete);
    if (!answers.ok) throw new Error(answers.error);
    const { fitting, problems } = checkAnswers(court, answers.value);
    expect(fitting.map((a) => a.name).sort()).toEqual(["Adresse TE", "Date naissance DA", "Delai NU", "Nom TE", "Type reclamation MC"]);
    expect(fitting.find((a) => a.key === "delai nu")?.values).toEqual([10]);
    expect(problems.every((p) => p.kind === "unknown")).toBe(true);
    expect(problems.map((p) => p.name)).toContain("Nom defendeur TE");
  });

  it("takes a whole answer file of the same guide, its round trip through ANX included", () => {
    const answers = answersFromJSON(complete, claims);
    if (!answers.ok) throw new Error(answers.error);
    const anx = answersFromANX(answersToANX(answers.value, "Small claims"), claims);
    if (!anx.ok) throw new Error(anx.error);
    const { fitting, problems } = checkAnswers(claims, anx.value);
    expect(problems).toEqual([]);
    expect(fitting.find((a) => a.key === "somme description te")?.values).toEqual(["Deposit for the kitchen", "Materials paid in advance"]);
    expect(fitting.find((a) => a.key === "date naissance da")?.values).toEqual(["03/14/1985"]);
  });

  it("names a value of the wrong type and one outside a pick list's choices", () => {
    const anx = answersFromANX(
      `<AnswerSet><Answer name="Delai NU"><TextValue>soon</TextValue></Answer><Answer name="Date naissance DA"><DateValue>31/02/1985</DateValue></Answer><Answer name="Type reclamation MC"><MCValue><SelValue>a dragon</SelValue></MCValue></Answer><Answer name="Nom TE"><TextValue>Ada</TextValue></Answer></AnswerSet>`,
      court,
    );
    if (!anx.ok) throw new Error(anx.error);
    const { fitting, problems } = checkAnswers(court, anx.value);
    expect(fitting.map((a) => a.name)).toEqual(["Nom TE"]);
    expect(problems).toEqual(
      expect.arrayContaining([
        { kind: "type", name: "Delai NU", expected: "Number", value: "soon" },
        { kind: "type", name: "Date naissance DA", expected: "Date", value: "02/31/1985" },
        { kind: "choice", name: "Type reclamation MC", value: "a dragon" },
      ]),
    );
  });

  it("knows a pick list's choices and a question's label", () => {
    expect([...(choicesOf(court).get("type reclamation mc") ?? [])]).toContain("work that was done badly or not finished");
    expect(questionLabel(court, "nom te")).toBe("Your full name");
  });

  it("puts chosen answers into an answer set without touching the rest", () => {
    const answers = answersFromJSON("{}", court);
    if (!answers.ok) throw new Error(answers.error);
    const out = withAnswers(answers.value, [{ key: "nom te", name: "Nom TE", type: "Text", repeating: false, values: ["Ada"] }]);
    expect(out["nom te"]?.values).toEqual([null, "Ada"]);
    expect(out["adresse te"]?.values).toEqual([null]);
    expect(answers.value["nom te"]?.values).toEqual([null]);
  });
});
