import { dayText } from "./help-views";
import type { PreparedInterview } from "./prepared.server";
import { preparedWords } from "./words";

/** Where a prepared interview is: not sent, sent (until when), expired, or taken by the person (when). */
export function PreparedStatus({ prepared }: { prepared: Pick<PreparedInterview, "state" | "expiresAt" | "claimedAt"> }) {
  if (prepared.state === "claimed") return <>{preparedWords.claimed(dayText(prepared.claimedAt!))}</>;
  if (prepared.state === "expired") return <>{preparedWords.expired}</>;
  if (prepared.state === "sent") return <>{preparedWords.sent(dayText(prepared.expiresAt))}</>;
  return <>{preparedWords.notSent}</>;
}
