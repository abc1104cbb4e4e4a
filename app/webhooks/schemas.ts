import { z } from "zod";
import { WEBHOOK_EVENTS } from "./events";

export const webhookMessages = {
  url: "Enter the endpoint's full address, starting with https://",
  events: "Choose at least one event",
  description: "Description must be 200 characters or fewer",
} as const;

/** Registering an endpoint: its address, what it is for, the events it receives. */
export const endpointSchema = z.object({
  url: z.string({ error: webhookMessages.url }).trim().min(1, webhookMessages.url).max(2000, "The address must be 2,000 characters or fewer"),
  description: z.string().trim().max(200, webhookMessages.description).optional(),
  events: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z
      .array(z.enum(WEBHOOK_EVENTS, { error: webhookMessages.events }))
      .min(1, webhookMessages.events)
      .max(WEBHOOK_EVENTS.length),
  ),
});
