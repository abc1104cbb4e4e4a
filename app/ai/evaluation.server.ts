// How well "Understand my situation" does on a set of written questions (eval/ai-questions.json): are the passages it
// cites the right ones, does it refuse where the sources say nothing, how hard is it to read. Run by `npm run eval:ai`
// against a real endpoint, and by the tests against the stand-in (docs/decisions/0032-grounded-ai-help.md).
import { z } from "zod";
import type { Db } from "../../db/database";
import { getIssue } from "~/content/content.server";
import { DEFAULT_LANGUAGE, isLanguageCode } from "~/i18n/languages";
import { searchPassages } from "~/sources/sources.server";
import type { AiSettings } from "./chat.server";
import { MAX_PASSAGES } from "./understand";
import { explainSituation } from "./understand.server";

export const evaluationSetSchema = z.object({
  questions: z.array(
    z.object({
      issueId: z.number().int(),
      /** The language it is asked in, and the explanation is to be written in: a shipped language's tag. */
      language: z.string().refine(isLanguageCode, "not a shipped language's tag").default(DEFAULT_LANGUAGE),
      question: z.string().min(1),
      /** The headings of the passages a good answer cites; none: the sources do not answer it. */
      expectHeadings: z.array(z.string()),
    }),
  ),
});
/** A question as written in the set (its language may be left out: English). */
export type EvaluationQuestion = z.input<typeof evaluationSetSchema>["questions"][number];

export interface EvaluatedQuestion {
  question: EvaluationQuestion;
  /** "explained", or why nothing was explained. */
  outcome: string;
  /** The headings of the passages the shown statements cite. */
  cited: string[];
  /** Cited passages whose heading is expected. */
  rightCitations: number;
  citations: number;
  /** An answer where one was expected and none where none was. */
  rightOutcome: boolean;
  readingGrade: number | null;
}

/** The figures over a set of questions (all of them, or those of one language). */
export interface EvaluationFigures {
  questions: number;
  /** Right citations ÷ citations, over every answered question (null when nothing was cited). */
  citationPrecision: number | null;
  /** Questions with an expected answer that cite at least one expected passage, ÷ those questions. */
  answeredWithRightSource: number;
  /** Questions the sources do not answer that got no explanation, ÷ those questions. */
  refusedWithoutSources: number;
  medianReadingGrade: number | null;
}

export interface EvaluationSummary extends EvaluationFigures {
  results: EvaluatedQuestion[];
  /** The same figures for the questions of each language, by its tag, in the order the languages first come. */
  byLanguage: Record<string, EvaluationFigures>;
}

/** A question's language: its own, else English. */
export const questionLanguage = (question: EvaluationQuestion) => question.language ?? DEFAULT_LANGUAGE;

const median = (values: number[]) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function evaluateUnderstanding(questions: readonly EvaluationQuestion[], db: Db, settings: AiSettings): Promise<EvaluationSummary> {
  const results: EvaluatedQuestion[] = [];
  for (const question of questions) {
    const issue = await getIssue(question.issueId, db);
    if (!issue) throw new Error(`The evaluation asks about issue ${question.issueId}, which the database does not have.`);
    const language = questionLanguage(question);
    const passages = await searchPassages({ countryId: issue.country.id, issueId: issue.id, query: question.question, limit: MAX_PASSAGES, language }, db);
    const { explanation } = await explainSituation(
      { question: question.question, passages, language, issue: { id: issue.id, name: issue.name, modelAI: issue.modelAI, countryName: issue.country.name } },
      settings,
    );
    const citedNumbers = explanation.ok ? [...new Set(explanation.statements.flatMap((statement) => statement.citations))] : [];
    const cited = citedNumbers.map((number) => passages[number - 1]?.heading ?? "");
    const rightCitations = cited.filter((heading) => question.expectHeadings.includes(heading)).length;
    const expectsAnswer = question.expectHeadings.length > 0;
    results.push({
      question,
      outcome: explanation.ok ? "explained" : explanation.reason,
      cited,
      rightCitations,
      citations: cited.length,
      rightOutcome: expectsAnswer ? explanation.ok && rightCitations > 0 : !explanation.ok,
      readingGrade: explanation.ok ? explanation.readingGrade : null,
    });
  }
  const byLanguage: Record<string, EvaluationFigures> = {};
  for (const language of new Set(results.map((result) => questionLanguage(result.question)))) {
    byLanguage[language] = figures(results.filter((result) => questionLanguage(result.question) === language));
  }
  return { results, ...figures(results), byLanguage };
}

function figures(results: EvaluatedQuestion[]): EvaluationFigures {
  const citations = results.reduce((sum, result) => sum + result.citations, 0);
  const expecting = results.filter((result) => result.question.expectHeadings.length > 0);
  const notExpecting = results.filter((result) => result.question.expectHeadings.length === 0);
  return {
    questions: results.length,
    citationPrecision: citations ? results.reduce((sum, result) => sum + result.rightCitations, 0) / citations : null,
    answeredWithRightSource: expecting.length ? expecting.filter((result) => result.rightOutcome).length / expecting.length : 1,
    refusedWithoutSources: notExpecting.length ? notExpecting.filter((result) => result.rightOutcome).length / notExpecting.length : 1,
    medianReadingGrade: median(results.flatMap((result) => (result.readingGrade === null ? [] : [result.readingGrade]))),
  };
}
