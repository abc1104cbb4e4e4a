import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

// Every URL of the application, by group. Any path not declared here,
// at any depth and under any group, falls through to the catch-all and gets the not-found page.
export default [
  // landing
  index("routes/home.tsx"),

  // support
  ...prefix("support", [route("contact-us", "routes/support.contact-us.tsx")]),

  // legal
  ...prefix("legal", [
    route("terms-and-conditions", "routes/legal.terms-and-conditions.tsx"),
    route("privacy-policies", "routes/legal.privacy-policies.tsx"),
  ]),

  // about
  ...prefix("about", [index("routes/about.tsx")]),

  // "Stay signed in", from the warning before a session ends (app/ui/session-timeout.tsx). Its status
  // (/session/status) is answered by the server ahead of the router: asking must not count as a request.
  ...prefix("session", [route("stay-signed-in", "routes/session.stay-signed-in.ts")]),

  // auth: signing out is for signed-in people; every other auth page is for signed-out people only.
  route("auth/sign-out", "routes/auth.sign-out.ts"),
  ...prefix("auth", [
    layout("routes/auth.tsx", [
      route("sign-in", "routes/auth.sign-in.tsx"),
      route("sign-in/verify-2fa", "routes/auth.sign-in.verify-2fa.tsx"),
      route("sign-in/recovery-code", "routes/auth.sign-in.recovery-code.tsx"),
      route("sign-up", "routes/auth.sign-up.tsx"),
      route("sign-up/email-sent", "routes/auth.sign-up.email-sent.tsx"),
      route("sign-up/password", "routes/auth.sign-up.password.tsx"),
      route("setup-2fa", "routes/auth.setup-2fa.tsx"),
      route("reset-password", "routes/auth.reset-password.tsx"),
      route("reset-password/check-email", "routes/auth.reset-password.check-email.tsx"),
      route("reset-password/password", "routes/auth.reset-password.password.tsx"),
      route("reset-password/successful", "routes/auth.reset-password.successful.tsx"),
      route("email-verify-issue", "routes/auth.email-verify-issue.tsx"),
      route("account-deleted", "routes/auth.account-deleted.tsx"),
    ]),
  ]),

  // account: every page needs a signed-in person.
  ...prefix("account", [
    layout("routes/account.tsx", [
      index("routes/account._index.ts"),
      route("dashboard", "routes/account.dashboard.tsx"),
      route("edit-profile", "routes/account.edit-profile.tsx"),
      route("change-password", "routes/account.change-password.tsx"),
      route("recovery-codes", "routes/account.recovery-codes.tsx"),
      route("authenticator", "routes/account.authenticator.tsx"),
      route("my-data", "routes/account.my-data.tsx"),
      route("my-data/download", "routes/account.my-data.download.ts"),
      route("delete-account", "routes/account.delete-account.tsx"),
      route("interview", "routes/account.interview.tsx"),
      route("interview/:interviewId/answers", "routes/account.interview.$interviewId.answers.tsx"),
      route("interview/:interviewId/delete", "routes/account.interview.$interviewId.delete.tsx"),
      route("interview/:interviewId/correct", "routes/account.interview.$interviewId.correct.ts"),
      route("interview/:interviewId/download", "routes/account.interview.$interviewId.download.ts"),
      route("interview/:interviewId/help", "routes/account.interview.$interviewId.help.tsx"),
      // Signing a completed interview's documents, and the signed document once everyone has (issue 30).
      route("interview/:interviewId/sign", "routes/account.interview.$interviewId.sign.tsx"),
      route("interview/:interviewId/signed", "routes/account.interview.$interviewId.signed.ts"),
    ]),
  ]),

  // administration: administrators only; everyone else gets the not-found page (app/administration/guard.server.ts).
  ...prefix("admin", [
    layout("routes/admin.tsx", [
      index("routes/admin._index.tsx"),
      route("administrators", "routes/admin.administrators.tsx"),
      route("languages", "routes/admin.languages.tsx"),
      route("reminders", "routes/admin.reminders.tsx"),
      route("audit", "routes/admin.audit.tsx"),
      route("usage", "routes/admin.usage.tsx"),
      route("usage/:issueId", "routes/admin.usage.$issueId.tsx"),
      route("sources", "routes/admin.sources._index.tsx"),
      route("sources/new", "routes/admin.sources.new.tsx"),
      route("sources/:sourceId", "routes/admin.sources.$sourceId.tsx"),
      route("sources/:sourceId/edit", "routes/admin.sources.$sourceId.edit.tsx"),
      route("sources/:sourceId/delete", "routes/admin.sources.$sourceId.delete.tsx"),
      route("ai-calls", "routes/admin.ai-calls.tsx"),
      route("webhooks", "routes/admin.webhooks.tsx"),
      route("webhooks/:endpointId", "routes/admin.webhooks.$endpointId.tsx"),
      route("content", "routes/admin.content.tsx"),
      route("content/:section/:key", "routes/admin.content.$section.$key.tsx"),
      route("content/:section/:key/history", "routes/admin.content.$section.$key.history.tsx"),
      route("content/:section/:key/versions/:version", "routes/admin.content.$section.$key.versions.$version.tsx"),
      route("content/:section/:key/delete", "routes/admin.content.$section.$key.delete.tsx"),
      // The same item in another language, with its own history and versions; the interface's words in one
      // (/admin/content/words/:key, whose history and versions are the routes above).
      route("content/:section/:key/in/:language", "routes/admin.content.$section.$key.in.$language.tsx"),
      route("content/:section/:key/in/:language/history", "routes/admin.content.$section.$key.history.tsx", { id: "translation-history" }),
      route("content/:section/:key/in/:language/versions/:version", "routes/admin.content.$section.$key.versions.$version.tsx", { id: "translation-version" }),
      route("content/words/:key", "routes/admin.content.words.$key.tsx"),
      route("guides", "routes/admin.guides.tsx"),
      route("guides/:guideId", "routes/admin.guides.$guideId.tsx"),
      route("guides/:guideId/versions/:version", "routes/admin.guides.$guideId.versions.$version.tsx"),
      route("guides/:guideId/versions/:version/download", "routes/admin.guides.$guideId.versions.$version.download.ts"),
      route("api", "routes/admin.api.tsx"),
    ]),
  ]),

  // help desk: helpers only; everyone else gets the not-found page (app/help/guard.server.ts).
  ...prefix("help", [
    layout("routes/help.tsx", [
      index("routes/help._index.tsx"),
      route("requests/:shareId", "routes/help.requests.$shareId.tsx"),
      route("requests/:shareId/answers", "routes/help.requests.$shareId.answers.tsx"),
      route("requests/:shareId/document", "routes/help.requests.$shareId.document.ts"),
      route("requests/:shareId/files/:attachmentId", "routes/help.requests.$shareId.files.$attachmentId.ts"),
      route("prepared", "routes/help.prepared._index.tsx"),
      route("prepared/new", "routes/help.prepared.new.tsx"),
      route("prepared/:interviewId", "routes/help.prepared.$interviewId.tsx"),
      route("prepared/:interviewId/cancel", "routes/help.prepared.$interviewId.cancel.tsx"),
    ]),
  ]),
  // An invitation to an interview a helper prepared (?code=…): for whoever holds the emailed link.
  route("invitation", "routes/invitation.tsx"),
  // The emailed link that stops reminders of unfinished interviews (?code=…): for whoever holds it, no sign-in.
  route("reminders/stop", "routes/reminders.stop.tsx"),
  // The emailed link to sign a document someone asked another to sign (?code=…), and the document to read, once
  // the one-time code was given: for whoever holds the link and the code, no account (issue 30).
  route("sign", "routes/sign.tsx"),
  route("sign/document", "routes/sign.document.ts"),

  // ai: the AI tools. draft and dashboard are reserved, with no pages: their paths answer 404 through the catch-all.
  ...prefix("ai", [
    route("rephrase/:interviewId", "routes/ai.rephrase.$interviewId.tsx"),
    route("document/:interviewId", "routes/ai.document.$interviewId.tsx"),
  ]),

  // interview (its frame, /viewer, is served ahead of the router: server/viewer.ts)
  ...prefix("issues", [
    route(":issueId", "routes/issues.$issueId.tsx"),
    route(":issueId/interviews/:interviewId?", "routes/issues.$issueId.interviews.tsx"),
    // Starting with answers from before or from an answer file; an answer file into an interview under way (issue 29).
    route(":issueId/interviews/start", "routes/issues.$issueId.interviews.start.tsx"),
    route(":issueId/interviews/:interviewId/answer-file", "routes/issues.$issueId.interviews.start.tsx", { id: "answer-file" }),
    route(":issueId/understand", "routes/issues.$issueId.understand.tsx"),
  ]),
  route("preview/:guideId", "routes/preview.$guideId.tsx"),
  route("interview-guides/:guideId", "routes/interview-guides.$guideId.ts"),
  route("assemble", "routes/assemble.ts"),
  route("interviews/:interviewId/answers", "routes/interviews.$interviewId.answers.ts"),
  route("attachments/:attachmentId", "routes/attachments.$attachmentId.ts"),
  route("attachments/:attachmentId/info", "routes/attachments.$attachmentId.info.ts"),

  // The organisation's API: one module answers every path under /api/v1 from a table of endpoints (app/api/).
  route("api/v1/*", "routes/api.v1.$.ts"),

  // operations
  route("healthz", "routes/healthz.ts"),

  // not found
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
