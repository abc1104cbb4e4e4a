// The words of help from a person, in one place: the public ones (sharing, replies, invitations) move into the
// language catalogue as they are, with the date or name each needs as an argument.

import { messageRef } from "~/i18n/translator";

/**
 * What a person reads about sharing and replies is in the language catalogue (keys `account.help.*`,
 * `account.note.*`); the help desk's own words (staff only) stay here, in English.
 */
export const shareWords = {
  /** The desk's choice of what a reply is about. */
  wholeInterview: "The whole interview",
} as const;

/** Refusals of "Ask for help with this interview": references, put into words in the page's language. */
export const shareMessages = {
  nothingChosen: messageRef("account.help.nothingChosen"),
  messageTooLong: messageRef("account.help.messageTooLong"),
  alreadyShared: messageRef("account.help.alreadyShared"),
} as const;

/** What the interview page says to a helper preparing it (app/routes/issues.$issueId.interviews.tsx). */
export const noteWords = {
  preparing: (name: string) => `You are preparing this interview for ${name}.`,
  preparingNext: "When you are ready, send the invitation from the help desk.",
} as const;

export const deskWords = {
  title: "Help desk",
  requests: "Requests for help",
  statuses: { new: "New", taken: "Taken", closed: "Closed" },
  allCountries: "All countries",
  allIssues: "All issues",
  allLanguages: "All languages",
  none: (status: string) => `There are no ${status.toLowerCase()} requests${status === "New" ? " just now" : ""}.`,
  takeHint: "Taking it tells the other helpers that you are helping. Then you can read what was shared and reply.",
  take: "Take this request",
  takenToast: "The request is yours.",
  alreadyTaken: "Another helper took this request first.",
  close: "Close the request",
  closeHint: "When you have finished helping. You can no longer open what they shared, and they can ask again.",
  closedToast: "The request is closed.",
  replyLabel: "Your reply",
  replyHint: "They get an email that says only that there is a reply, and read it when they sign in.",
  aboutLabel: "About",
  send: "Send reply",
  sentToast: "Your reply is sent.",
  replyRequired: "Write your reply.",
  replyTooLong: "Your reply must be less than 5000 characters.",
  unknownPage: "Choose a page from the list.",
} as const;

export const preparedWords = {
  newTitle: "Prepare an interview for someone",
  listTitle: "Interviews you prepared",
  intro:
    "Start an interview for someone, for example during a phone call. Answer the pages you can together, then send them an invitation to carry on with it in their own account.",
  start: "Start the interview",
  emailHint: "We send the invitation here. It works once, for 7 days.",
  issueLabel: "Issue",
  chooseIssue: "Choose an issue.",
  noGuide: "This issue has no interview yet.",
  invite: "Send the invitation",
  inviteAgain: "Send a new invitation",
  inviteHint: "The link works once, for 7 days. A new invitation replaces the one before.",
  invitedToast: (email: string) => `The invitation is sent to ${email}.`,
  cancel: "Cancel this interview",
  cancelTitle: "Cancel this interview?",
  cancelText: "Its answers and files are deleted, and the invitation stops working. This cannot be undone.",
  cancelYes: "Yes, cancel it",
  cancelNo: "No, keep it",
  cancelledToast: "The interview is cancelled.",
  continue: "Continue the interview",
  notSent: "Not sent yet",
  sent: (until: string) => `Invitation sent; it works until ${until}`,
  expired: "The invitation has expired. Send a new one, or the interview is removed within the hour.",
  claimed: (when: string) => `Taken by them on ${when}`,
  claimedText: "It is theirs now: you see it only if they share it with the helpers.",
} as const;

export const emailWords = {
  invitationSubject: "An interview was prepared for you",
  invitation: (helper: string) => `${helper} from our team has started an interview for you. Open the link to carry on with it in your own account.`,
  invitationAction: "Open my interview",
  invitationValidity: "This link will expire in 7 days and works once.",
} as const;
