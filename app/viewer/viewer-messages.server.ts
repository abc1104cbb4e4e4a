// The viewer's own messages decided away from the page (a step that failed, an upload refused): message
// references (app/i18n/translator.ts, messageRef), put into words in the guide's language where the viewer
// renders them (docs/decisions/0047-the-viewer-speaks-the-guides-language.md).
import { messageRef } from "~/i18n/translator";
import { attachmentMessages } from "~/interviews/attachments.server";

export const VIEWER_ERRORS = {
  page: messageRef("viewer.error.page"),
  review: messageRef("viewer.error.review"),
  help: messageRef("viewer.error.help"),
} as const;

const UPLOADS: Record<string, string> = {
  [attachmentMessages.none]: messageRef("viewer.upload.none"),
  [attachmentMessages.tooLarge]: messageRef("viewer.upload.tooLarge"),
  [attachmentMessages.wrongType]: messageRef("viewer.upload.wrongType"),
  [attachmentMessages.notStored]: messageRef("viewer.upload.notStored"),
};

/** An upload's refusal (app/interviews/attachments.server.ts says it in English) as the viewer's message reference. */
export function uploadMessage(english: string): string {
  return UPLOADS[english] ?? english;
}
