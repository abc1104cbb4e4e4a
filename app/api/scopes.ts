// The API's scopes and the choices of /admin/api's form: shared by the server and the page (no secrets here).
import { z } from "zod";

/** What a token may do. Each endpoint names the one scope it needs. */
export const SCOPES = ["issues:read", "prepared:write", "shared:read", "replies:write", "webhooks:manage"] as const;
export type Scope = (typeof SCOPES)[number];

/** What each scope allows, as the administration page and the OpenAPI document say it. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  "issues:read": "Read the issues and their guides.",
  "prepared:write": "Prepare interviews for people, with answers filled in, and send them the invitation.",
  "shared:read": "Read what people share with the organisation while they share it: interviews, answers, documents, help requests and replies.",
  "replies:write": "Reply to help requests, as the help desk does.",
  "webhooks:manage": "Register, change and remove webhook endpoints.",
};

/** Every token starts so: a secret scanner (or a person) can tell what it is. */
export const TOKEN_PREFIX = "lsh_";
/** How long a token may live: from a day to a year, chosen when it is made. */
export const TOKEN_DAYS = [7, 30, 90, 365] as const;

/** Making a token at /admin/api: a name, at least one scope, and how many days it lives. */
export const tokenSchema = z.object({
  name: z.string({ error: "Enter a name for the token." }).trim().min(1, "Enter a name for the token.").max(60, "The name is at most 60 characters."),
  scopes: z.preprocess(
    (value) => (value === undefined || value === "" ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.enum(SCOPES, "Choose what the token may do.")).min(1, "Choose what the token may do."),
  ),
  days: z.enum(TOKEN_DAYS.map(String) as [string, ...string[]], "Choose how long the token works.").transform(Number),
});
