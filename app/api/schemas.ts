// The schemas of the organisation's API (docs/decisions/0056-the-api.md): the same zod schemas validate what a
// request sends and describe it in the OpenAPI document (z.toJSONSchema), so the two cannot drift apart.
import { z } from "zod";
import { EMAIL_ADDRESS } from "~/a2j/validate";
import { WEBHOOK_EVENTS } from "~/webhooks/events";

const dateTime = () => z.string().meta({ format: "date-time" });
const uuid = () => z.string().meta({ format: "uuid" });

/** Pagination: at most `limit` items, after the position `cursor` a previous page gave as `nextCursor`. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: "How many items at most (1 to 100)." }),
  cursor: z.string().min(1).max(500).optional().meta({ description: "The `nextCursor` of the page before; none for the first page." }),
});

export const sharesQuery = pageQuery.extend({
  status: z.enum(["new", "taken", "closed"]).optional().meta({ description: "Only requests in this state on the help desk." }),
});

export const issueParams = z.object({ issueId: z.string().regex(/^[1-9][0-9]{0,8}$/).transform(Number).meta({ description: "The issue's id." }) });
export const guideParams = z.object({ guideId: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/).meta({ description: "The guide's id." }) });
export const interviewParams = z.object({ interviewId: uuid().meta({ description: "The prepared interview's id." }) });
export const fileParams = z.object({
  shareId: uuid().meta({ description: "The share's id." }),
  fileId: uuid().meta({ description: "The file's id, from GET /shared-interviews/{shareId}/files." }),
});
export const shareParams = z.object({ shareId: uuid().meta({ description: "The share's id: the shared interview's and its help request's." }) });

const name = (what: string) => z.string().trim().min(1, `${what} is required.`).max(50, `${what} is at most 50 characters.`);

/** A value of an answer: text, a number, yes or no (TF), a date as A2J keeps it (MM/DD/YYYY). */
const answerValue = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);

export const prepareBody = z
  .object({
    issueId: z.number().int().min(1).meta({ description: "The issue whose published guide the interview runs." }),
    person: z
      .object({
        firstName: name("The first name"),
        lastName: name("The last name"),
        email: z.string().trim().max(254, "The email is at most 254 characters.").regex(EMAIL_ADDRESS, "The email is not an email address."),
      })
      .meta({ description: "Who it is for: the invitation goes to this address, and only an account with it can claim the interview." }),
    answers: z
      .record(z.string().min(1).max(200), z.union([answerValue, z.array(answerValue).max(500)]))
      .optional()
      .meta({
        description:
          "Answers filled in beforehand, by the guide's variable names (GET /guides/{guideId} lists them): a value, or a list of values for a variable that repeats. Checked against the guide: a variable it does not have, or a value not of its type or not among its choices, is refused.",
      }),
    answerFile: z
      .string()
      .max(512 * 1024, "The answer file is at most 512 kB.")
      .optional()
      .meta({ description: "Answers filled in beforehand as an answer file: A2J or HotDocs ANX (XML), or A2J's JSON answers. Checked like `answers`; both may be given (`answers` wins)." }),
  })
  .strict();

export const replyBody = z
  .object({
    body: z.string().trim().min(1, "The reply is required.").max(5000, "The reply is at most 5,000 characters."),
    aboutPage: z
      .string()
      .max(300)
      .optional()
      .meta({ description: "The page the reply is about, one of the `pages` of GET /help-requests/{shareId}/replies; none for the whole interview." }),
  })
  .strict();

// ——— What the API answers ———

export const problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    errors: z
      .array(
        z.object({
          pointer: z.string().optional().meta({ description: "A JSON Pointer (RFC 6901) to the field of the body at fault." }),
          parameter: z.string().optional().meta({ description: "The query parameter at fault." }),
          detail: z.string(),
        }),
      )
      .optional()
      .meta({ description: "Bad input: each field at fault and what is wrong with it." }),
  })
  .meta({ description: "An error, as RFC 9457 problem details (application/problem+json)." });

const links = (names: string[]) => z.object(Object.fromEntries(names.map((key) => [key, z.string()]))).meta({ description: "Addresses in this API." });

export const country = z.object({ id: z.number().int(), name: z.string() });
export const issueSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  country,
  guideId: z.string().nullable(),
  sensitive: z.boolean().meta({ description: "The issue's page offers a quick exit: a person may be at risk if seen using it." }),
  links: links(["self"]),
});
export const issue = issueSummary.extend({ content: z.string().meta({ description: "The issue's page, in markdown." }) });

export const guideSummary = z.object({
  id: z.string(),
  title: z.string(),
  language: z.string(),
  publishedVersion: z.number().int().nullable(),
  translationOf: z.string().nullable(),
  links: links(["self"]),
});
export const guideVariable = z.object({
  name: z.string(),
  type: z.string().meta({ description: "A2J's type: Text, TF, MC, Number, Date, Unknown." }),
  repeating: z.boolean(),
  comment: z.string(),
});
export const guide = guideSummary.extend({
  issueIds: z.array(z.number().int()),
  variables: z.array(guideVariable).meta({ description: "The published version's variables: what `answers` of a prepared interview may fill in." }),
});

export const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable().meta({ description: "Give it as `cursor` for the next page; null on the last." }) });

export const preparedInterview = z.object({
  interviewId: uuid(),
  issueId: z.number().int(),
  person: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }),
  state: z.enum(["not-sent", "sent", "expired", "claimed"]).meta({ description: "sent: the invitation is waiting; claimed: the person took the interview over." }),
  invitedAt: dateTime().nullable(),
  expiresAt: dateTime(),
  claimedAt: dateTime().nullable(),
  createdAt: dateTime(),
  links: links(["self"]),
});

const shared = z.object({ answers: z.boolean(), documents: z.boolean(), files: z.boolean() }).meta({ description: "What the person chose to share." });
export const sharedInterviewSummary = z.object({
  id: uuid(),
  interviewId: uuid().meta({ description: "The interview shared: the `interviewId` of a prepared interview once the person shares it." }),
  issue: z.object({ id: z.number().int(), name: z.string() }),
  country,
  language: z.string(),
  status: z.enum(["new", "taken", "closed"]).meta({ description: "The help request's state on the help desk." }),
  takenBy: z.string().nullable(),
  interviewStatus: z.enum(["Draft", "Completed"]),
  shared,
  createdAt: dateTime(),
  sharedUntil: dateTime(),
  links: z.record(z.string(), z.string()).meta({ description: "self, helpRequest, replies, and answers, answersAnx and document when they are shared." }),
});
export const helpRequest = sharedInterviewSummary.extend({ message: z.string().nullable().meta({ description: "What the person wrote when they asked for help." }) });

export const sharedFile = z.object({
  id: uuid(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  links: links(["self"]),
});

export const sharedAnswers = z.object({
  interviewStatus: z.enum(["Draft", "Completed"]),
  language: z.string(),
  answers: z.record(z.string(), z.object({ name: z.string(), type: z.string(), repeating: z.boolean().optional(), values: z.array(answerValue) })).meta({
    description: "A2J's JSON answers: by lower-cased variable name; `values[0]` is always null, the first answer is `values[1]`.",
  }),
});

export const reply = z.object({
  id: uuid(),
  from: z.string().meta({ description: "The helper, or the API token, who wrote it." }),
  body: z.string(),
  about: z.object({ page: z.string(), label: z.string() }).nullable(),
  createdAt: dateTime(),
  readByPerson: z.boolean(),
});
export const replies = z.object({
  items: z.array(reply),
  pages: z.array(z.object({ page: z.string(), label: z.string() })).meta({ description: "The pages a reply can be about (when the answers are shared)." }),
});

export type PrepareBody = z.output<typeof prepareBody>;

// ——— Webhooks (app/webhooks/, docs/decisions/0057-webhooks.md) ———

export const webhookParams = z.object({ webhookId: uuid().meta({ description: "The webhook endpoint's id." }) });
export const deliveryParams = webhookParams.extend({ deliveryId: z.string().regex(/^msg_[0-9a-f]{32}$/).meta({ description: "The delivery's id (its webhook-id header)." }) });

export const webhookBody = z
  .object({
    url: z.string().trim().min(1, "The address is required.").max(2000, "The address is at most 2,000 characters.").meta({ description: "An https address; not a private or loopback one." }),
    description: z.string().trim().max(200, "The description is at most 200 characters.").default("").meta({ description: "What it is, for the administration." }),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, "Choose at least one event.").meta({ description: "The events to receive." }),
    enabled: z.boolean().optional().meta({ description: "False: no event is queued for it (what is pending waits)." }),
  })
  .strict();

export const webhook = z.object({
  id: uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  createdAt: dateTime(),
  updatedAt: dateTime(),
  previousSecretUntil: dateTime().nullable().meta({ description: "Until when the secret before the last rotation also signs." }),
  links: links(["self", "deliveries"]),
});
export const webhookWithSecret = webhook.extend({
  secret: z.string().meta({ description: "The signing secret (whsec_…, Standard Webhooks), shown this once." }),
});
export const webhookSecret = z.object({ secret: z.string(), previousSecretUntil: dateTime().nullable() });
export const delivery = z.object({
  id: z.string(),
  eventType: z.string(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int(),
  createdAt: dateTime(),
  nextAttemptAt: dateTime().nullable(),
  deliveredAt: dateTime().nullable(),
  payload: z.unknown().meta({ description: "The event as it was sent: ids and links, no personal data." }),
  recent: z.array(z.object({ attemptedAt: dateTime(), statusCode: z.number().int().nullable(), error: z.string().nullable(), response: z.string().nullable(), durationMs: z.number() })),
});
