/**
 * A2J Author interview engine: a pure library (no I/O, no clock, no React, no database).
 * Deterministic given the guide, the answers and "today" (days since 1970-01-01, UTC; see `daysFromDate`).
 *
 * Typical server use:
 * ```ts
 * const g = loadGuide(guideText);              // once per guide
 * if (!g.ok) return error(g.error);
 * let r = startInterview(g.guide, today);      // or resumeInterview(g.guide, savedAnswers, today)
 * const view = renderPage(g.guide, r.state, today);
 * r = submitPage(g.guide, r.state, { pageName, buttonIndex, values: formData }, today);
 * // r.outcome: { kind: "page" } | { kind: "special", target: "SUCCESS" | "EXIT" | … } | { kind: "invalid", errors }
 * store(JSON.stringify(r.state.answers), answersToANX(r.state.answers));
 * ```
 */

export type {
  Answers,
  AnswerValue,
  AnswerVar,
  Button,
  Field,
  FieldType,
  Guide,
  GuideVar,
  Page,
  Result,
  Step,
  VarType,
} from "./types";

// Guides
export { BUILTIN_VARS, SPECIAL_TARGETS, isSpecialTarget, lintScripts, loadGuide, loadGuideObject, fieldVarType, pickListWarnings, withPickLists } from "./guide";
export type { LoadGuideResult, SpecialTarget } from "./guide";

// Answers (JSON form) and ANX
export {
  answersFromJSON,
  answersToJSON,
  attachmentPath,
  cloneAnswers,
  createAnswers,
  displayValue,
  isBlank,
  getRaw,
  varGet,
  varSet,
} from "./answers";
export { answersFromANX, answersToANX } from "./anx";
export { answerableVar, checkAnswers, choicesOf, questionLabel, valueProblem, withAnswers } from "./answer-check";
export type { AnswerProblem, FittingAnswer } from "./answer-check";

// Script language and macros
export { evalExpression, runScript } from "./script";
export type { EvalContext, ScriptError, ScriptResult } from "./script";
export { parseExpression, parseScript } from "./parser";
export { escapeHtml, renderMacros, resolvePopups } from "./macros";

// Page flow (transitions) and the render model of a page
export {
  FINISH_TARGETS,
  MAX_JUMPS,
  changeAnswer,
  confirmFinish,
  createInterviewState,
  isFinishTarget,
  answerIndex,
  currentEntry,
  currentPage,
  enterPage,
  goBack,
  goToVisited,
  keepPageAnswers,
  reopenCompleted,
  resumeInterview,
  saveAndExit,
  startInterview,
  submitPage,
} from "./flow";
export type {
  FlowError,
  FinishTarget,
  FlowScriptError,
  InterviewState,
  PendingFinish,
  Outcome,
  SubmitInput,
  TransitionOptions,
  TransitionResult,
  TypedDraft,
  VisitedPage,
} from "./flow";
export { plainText, renderPage, reviewAnswers, visitedPages } from "./page-view";
export type { AnswerWord, ButtonView, FieldView, PageView, PopupView, Progress, RenderOptions, ReviewAnswer, ReviewStep, VisitedPageView } from "./page-view";
export { decimalSeparator, numberAsTyped, readTypedNumber } from "./numbers";
export { asksForEmail, DEFAULT_PROMPTS, englishMessage, fieldLimits, inputName, listOptions, validatePage } from "./validate";
export type { FieldError, FormValues, MessageSays, ValidationMessageId } from "./validate";

// The health check: every path of a guide explored (issue 32)
export { createExplorer, DEFAULT_MAX_DEPTH, DEFAULT_MAX_STATES, exploreGuide, isBlocking, variablesSetByGuide } from "./explore";
export type { Exploration, Explorer, ExploreOptions, FindingKind, FindingSeverity, HealthFinding } from "./explore";
export { MAX_REPLAY_PAGES, replayAnswers, replayValue } from "./answer-replay";
export type { Replay } from "./answer-replay";

// Dates
export {
  A2J_DATES,
  boxesFromStored,
  dateLocale,
  daysFromDate,
  daysInTimeZone,
  formatDays,
  formatDaysFor,
  parseUserDate,
  readDateBoxes,
  showStoredDate,
  ymdToDays,
} from "./dates";
export type { BoxesReading, DateBox, DateBoxes, DateLocale } from "./dates";
