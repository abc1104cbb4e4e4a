import stylesheet from "~/styles/app.css?url";

/** What every document of the site links to: React Router's pages through the root's `links`, the viewer directly. */
export const documentLinks = [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** The meta tags every document of the site starts its head with. */
export function DocumentMeta() {
  return (
    <>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light" />
    </>
  );
}
