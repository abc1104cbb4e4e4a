import { data } from "react-router";
import { AccountPage } from "~/account/account-page";
import { myDataZip } from "~/account/my-data.server";
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { contentDisposition } from "~/documents/documents.server";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary } from "~/ui/form";
import type { Route } from "./+types/account.my-data";

export function loader({ context }: Route.LoaderArgs) {
  requireUser(context);
  return null;
}

/** A plain form POST answered with the zip (no script needed); past the limit, the page again with the reason. */
export async function action({ context }: Route.ActionArgs) {
  const user = requireUser(context);
  const address = context.get(clientAddressContext);
  const refused = await refuseCostlyUse("my-data", user.id, address);
  if (refused) return data({ error: refused.message }, { status: 429 });
  const zip = await myDataZip(user.id, { address });
  if (!zip) throw new Response(null, { status: 404 });
  return new Response(new Uint8Array(zip.bytes), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition(zip.fileName),
      "Content-Length": String(zip.bytes.byteLength),
      "Cache-Control": "private, no-store",
    },
  });
}

export default function MyData({ actionData }: Route.ComponentProps) {
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <AccountPage title="Download my data">
      <ErrorSummary errors={[]} formErrors={error ? [error] : []} />
      <p>You get one zip file with:</p>
      <ul>
        <li>your profile: your name, email address and phone number;</li>
        <li>every interview, with your answers as A2J answers (JSON) and as an ANX answer file;</li>
        <li>the document of each Completed interview;</li>
        <li>the files you uploaded.</li>
      </ul>
      <p>It can take a few seconds. A document that cannot be made is listed in the README.txt file inside the zip.</p>
      <form method="post" className="form">
        <button type="submit" className="button">
          Download my data
        </button>
      </form>
    </AccountPage>
  );
}
