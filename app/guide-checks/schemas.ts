import { z } from "zod";

export const scenarioFormMessages = {
  noName: "Give the scenario a name.",
  longName: "Use no more than 100 characters for the name.",
  noFile: "Choose an answer file (ANX or JSON).",
  noExpectations: "Write at least one expectation: what must hold at the end of the scenario.",
} as const;

/** A test scenario attached to a guide: a name, an answer file and what must hold (checked again on the server). */
export const scenarioSchema = z.object({
  name: z.string({ message: scenarioFormMessages.noName }).trim().min(1, scenarioFormMessages.noName).max(100, scenarioFormMessages.longName),
  answers: z.instanceof(File, { message: scenarioFormMessages.noFile }).refine((file) => file.size > 0, scenarioFormMessages.noFile),
  expectations: z.string({ message: scenarioFormMessages.noExpectations }).trim().min(1, scenarioFormMessages.noExpectations),
});
