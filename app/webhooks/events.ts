// The events an endpoint can subscribe to (docs/decisions/0057-webhooks.md), with the words the administration
// shows for each. Shared by the server and the forms.

export const WEBHOOK_EVENTS = ["help.requested", "interview.shared", "interview.completed", "documents.signed", "share.ended"] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "help.requested": "Help requested: a person asks the helpers for help (a new request on the help desk).",
  "interview.shared": "Interview shared: a person shares an interview with the organisation.",
  "interview.completed": "Shared interview completed: a person completes an interview while it is shared.",
  "documents.signed": "Documents signed: the documents of a shared interview are signed.",
  "share.ended": "Share ended: a person stops sharing an interview (or the helpers can no longer see it).",
};

export function isWebhookEvent(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}
