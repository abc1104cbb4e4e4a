/**
 * Answer files in (issue 29, part 2): an A2J/HotDocs ANX file or A2J's JSON answers (as this product, A2J Author
 * or LawHelp Interactive save them), size-limited and read without entity expansion (app/a2j/xml.ts keeps no
 * DOCTYPE's declarations; one here is refused), then checked against the interview's guide. Every problem is
 * listed and the file is refused whole: nothing is taken silently.
 */
import { type AnswerProblem, answersFromANX, answersFromJSON, checkAnswers, type FittingAnswer, type Guide } from "~/a2j";

/** An answer file is a few kilobytes; a large guide's answers stay far under this. */
export const MAX_ANSWER_FILE_BYTES = 512 * 1024;

/** Why a file is refused before its answers are read. */
export type AnswerFileRefusal = "missing" | "tooLarge" | "unreadable" | "empty";

export type AnswerFileReading =
  | { ok: true; fitting: FittingAnswer[] }
  | { ok: false; refusal: AnswerFileRefusal }
  | { ok: false; problems: AnswerProblem[] };

/** The text of an uploaded file, or why not: UTF-8 (a byte order mark dropped), or UTF-16 with its mark. */
function fileText(bytes: Uint8Array): string | null {
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le", { fatal: true }).decode(bytes.subarray(2));
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be", { fatal: true }).decode(bytes.subarray(2));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

/** Reads an answer file's text and checks its answers against the guide. */
export function readAnswerText(text: string, guide: Guide): AnswerFileReading {
  const trimmed = text.trimStart();
  let read;
  if (trimmed.startsWith("<")) {
    // Answer files have no use for a document type: one could declare entities, which are never expanded anyway.
    if (/<!DOCTYPE|<!ENTITY/i.test(trimmed)) return { ok: false, refusal: "unreadable" };
    read = answersFromANX(trimmed, guide);
  } else if (trimmed.startsWith("{")) {
    read = answersFromJSON(trimmed, guide);
  } else {
    return { ok: false, refusal: "unreadable" };
  }
  if (!read.ok) return { ok: false, refusal: "unreadable" };
  const { fitting, problems } = checkAnswers(guide, read.value);
  if (problems.length > 0) return { ok: false, problems };
  if (fitting.length === 0) return { ok: false, refusal: "empty" };
  return { ok: true, fitting };
}

/** Reads an uploaded answer file (the form's `File`, or nothing chosen) and checks it against the guide. */
export async function readAnswerFile(file: FormDataEntryValue | null, guide: Guide): Promise<AnswerFileReading> {
  if (!(file instanceof File) || file.size === 0) return { ok: false, refusal: "missing" };
  if (file.size > MAX_ANSWER_FILE_BYTES) return { ok: false, refusal: "tooLarge" };
  const text = fileText(new Uint8Array(await file.arrayBuffer()));
  if (text === null) return { ok: false, refusal: "unreadable" };
  return readAnswerText(text, guide);
}
