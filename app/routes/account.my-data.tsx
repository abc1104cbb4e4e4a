import { data } from "react-router";
import { AccountPage } from "~/account/account-page";
import { RateLimitError } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { ErrorSummary } from "~/ui/form";
import type { Route } from "./+types/account.my-data";

// ?wait=N: the download (account.my-data.download.ts) was past its limit and sent the person back here.
export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  const wait = new URL(request.url).searchParams.get("wait");
  if (!wait || !/^\d{1,3}$/.test(wait)) return { error: null };
  const minutes = Math.min(Math.max(Number(wait), 1), 60);
  return data({ error: new RateLimitError(minutes).message }, { status: 429 });
}

export default function MyData({ loaderData }: Route.ComponentProps) {
  return (
    <AccountPage title="Download my data" errors={Boolean(loaderData.error)}>
      <ErrorSummary errors={[]} formErrors={loaderData.error ? [loaderData.error] : []} />
      <p>You get one zip file with:</p>
      <ul>
        <li>your profile: your name, email address and phone number;</li>
        <li>
          every interview, with your answers in two files (answers.json and answers.anx) that other legal interview software, such as A2J
          Author and HotDocs, can open again;
        </li>
        <li>the document of each Completed interview;</li>
        <li>the files you uploaded.</li>
      </ul>
      <p>It can take a few seconds. A document that cannot be made is listed in the README.txt file inside the zip.</p>
      <form method="post" action="/account/my-data/download" className="form">
        <button type="submit" className="button">
          Download my data
        </button>
      </form>
    </AccountPage>
  );
}
