import { createCookie } from "react-router";
import { countAttempt, RateLimitError } from "~/auth/rate-limit.server";
import { config } from "~/config.server";
import { downloadResponse } from "~/documents/documents.server";
import { notFound, tooManyRequests } from "~/http.server";
import { clientAddressContext } from "~/request-context";
import { signingLimits } from "~/signing/flow.server";
import { documentForSigner } from "~/signing/requests.server";
import type { Route } from "./+types/sign.document";

/**
 * The document to read, for another signer (?code=… of their emailed link) in a browser that gave the one-time
 * code (its cookie, app/routes/sign.tsx); anyone else: 404. Counted per address like the link's page.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  try {
    await countAttempt([[`sign-link:address:${context.get(clientAddressContext)}`, signingLimits.linkPerAddress]]);
  } catch (error) {
    if (error instanceof RateLimitError) tooManyRequests(error.message, error.retryAfterMinutes);
    throw error;
  }
  const code = new URL(request.url).searchParams.get("code")?.slice(0, 100) ?? "";
  const secure = config().isHttps;
  const visit: unknown = await createCookie(secure ? "__Secure-signer-visit" : "signer-visit", { secrets: config().sessionSecrets }).parse(request.headers.get("Cookie"));
  const document = await documentForSigner(code, typeof visit === "string" ? visit : null, new Date());
  if (!document) notFound(request);
  return downloadResponse(document);
}
