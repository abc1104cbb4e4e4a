// Test scenarios (issue 32; docs/a2j-formats.md "Test scenarios"): an answer file (ANX or A2J JSON) and what must
// hold when it is replayed through a guide version: a page or an ending reached, a document's text, a
// variable's value. No database here: the command line runs them on files, the administration on versions.
import { answersFromANX, answersFromJSON, type Answers, type Guide, replayAnswers, replayValue } from "~/a2j";
import type { ReadGuideFile } from "~/documents/assemble.server";
import { type DocumentText, documentTexts } from "~/documents/document-text.server";

export type Expectation =
  | { kind: "page"; page: string }
  | { kind: "outcome"; outcome: string }
  | { kind: "document"; text: string }
  | { kind: "variable"; name: string; value: string };

export const EXPECTATION_SYNTAX = "page: <page name> · outcome: <SUCCESS, ASSEMBLE-SUCCESS, EXIT, FAIL…> · document contains: <text> · variable: <name> = <value>";

/** Expectations, one a line; blank lines and lines starting with # are skipped. Errors name their line. */
export function parseExpectations(text: string): { ok: true; expectations: Expectation[] } | { ok: false; errors: string[] } {
  const expectations: Expectation[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const m = /^(page|reaches page|outcome|document contains|variable)\s*:\s*(.*)$/i.exec(line);
    const value = m?.[2]?.trim() ?? "";
    const kind = m?.[1]?.toLowerCase();
    if (!m || value === "") {
      errors.push(`Line ${i + 1}: "${line}" is not an expectation. Write one of: ${EXPECTATION_SYNTAX}.`);
    } else if (kind === "page" || kind === "reaches page") expectations.push({ kind: "page", page: value });
    else if (kind === "outcome") expectations.push({ kind: "outcome", outcome: value.toUpperCase() });
    else if (kind === "document contains") expectations.push({ kind: "document", text: value });
    else {
      const eq = value.indexOf("=");
      if (eq <= 0) errors.push(`Line ${i + 1}: a variable's expectation is "variable: <name> = <value>".`);
      else expectations.push({ kind: "variable", name: value.slice(0, eq).trim().replace(/^\[(.*)\]$/, "$1"), value: value.slice(eq + 1).trim() });
    }
  });
  if (errors.length) return { ok: false, errors };
  if (expectations.length === 0) return { ok: false, errors: ["Write at least one expectation: what must hold at the end of the scenario."] };
  return { ok: true, expectations };
}

/** An expectation in words. */
export function describeExpectation(e: Expectation): string {
  switch (e.kind) {
    case "page":
      return `Reaches the page "${e.page}"`;
    case "outcome":
      return `Ends with ${e.outcome}`;
    case "document":
      return `A document contains "${e.text}"`;
    case "variable":
      return `[${e.name}] is "${e.value}"`;
  }
}

/** Reads an answer file: ANX (XML) or A2J's JSON answers, by its content. */
export function readAnswerFile(text: string, guide?: Guide): { ok: true; format: "anx" | "json"; answers: Answers } | { ok: false; message: string } {
  const trimmed = text.replace(/^\uFEFF/, "").trimStart();
  if (trimmed.startsWith("<")) {
    const read = answersFromANX(trimmed, guide);
    return read.ok ? { ok: true, format: "anx", answers: read.value } : { ok: false, message: `The answer file is not a readable ANX file: ${read.error}` };
  }
  const read = answersFromJSON(trimmed, guide);
  return read.ok ? { ok: true, format: "json", answers: read.value } : { ok: false, message: `The answer file is neither ANX nor A2J JSON answers: ${read.error}` };
}

export interface ExpectationResult {
  expectation: string;
  passed: boolean;
  /** What was found instead, when it failed. */
  found: string | null;
}

export interface ScenarioResult {
  passed: boolean;
  /** Where the replay ended: an ending, or the page where it stopped and why. */
  outcome: string | null;
  stoppedAt: string | null;
  stoppedBecause: string | null;
  pages: number;
  checks: ExpectationResult[];
  documents: DocumentText[];
  /** Why the documents could not be made, if they could not. */
  documentsError: string | null;
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Replays a scenario's answers through a guide and checks each expectation. */
export async function runScenario(guide: Guide, readFile: ReadGuideFile, answers: Answers, expectations: Expectation[], today: number): Promise<ScenarioResult> {
  const replay = replayAnswers(guide, answers, today);
  const made = await documentTexts(readFile, replay.answers);
  const documents = made.ok ? made.documents : [];
  const allText = squash(documents.map((d) => d.text).join("\n"));
  const checks = expectations.map((e): ExpectationResult => {
    const expectation = describeExpectation(e);
    switch (e.kind) {
      case "page": {
        const passed = replay.visited.includes(e.page);
        return { expectation, passed, found: passed ? null : `it went through ${replay.visited.length} pages, not this one` };
      }
      case "outcome": {
        const passed = replay.outcome === e.outcome;
        return { expectation, passed, found: passed ? null : replay.outcome ? `it ended with ${replay.outcome}` : `it stopped at "${replay.stopped?.page ?? "the start"}": ${replay.stopped?.reason ?? ""}` };
      }
      case "document": {
        const passed = allText.includes(squash(e.text));
        return { expectation, passed, found: passed ? null : made.ok ? (documents.length ? "no document contains this text" : "no document was made") : `the documents could not be made: ${made.reason}` };
      }
      case "variable": {
        const value = replayValue(replay.answers, e.name);
        const passed = value === e.value;
        return { expectation, passed, found: passed ? null : value === "" ? "it is blank" : `it is "${value}"` };
      }
    }
  });
  return {
    passed: checks.every((c) => c.passed),
    outcome: replay.outcome,
    stoppedAt: replay.stopped?.page ?? null,
    stoppedBecause: replay.stopped?.reason ?? null,
    pages: replay.visited.length,
    checks,
    documents,
    documentsError: made.ok ? null : made.reason,
  };
}
