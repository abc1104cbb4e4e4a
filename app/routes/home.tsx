import { getHomeContent, listCountries, readOrEmpty } from "~/content/content.server";
import { parseId } from "~/http.server";
import { CountryAccordion } from "~/content/country-accordion";
import { Prose } from "~/ui/markdown";
import { markdownToHtml } from "~/ui/markdown.server";
import type { Route } from "./+types/home";

export async function loader({ request }: Route.LoaderArgs) {
  const [home, countries] = await Promise.all([
    readOrEmpty("the home page", () => getHomeContent(), null),
    readOrEmpty("the countries", () => listCountries(), []),
  ]);
  const requested = parseId(new URL(request.url).searchParams.get("country") ?? undefined);
  const openCountryId = countries.find((country) => country.id === requested)?.id ?? countries[0]?.id ?? null;
  const intro = home ? { headline: home.headline, subHeadline: home.subHeadline, bodyHtml: markdownToHtml(home.bodyCopy) } : null;
  return { home: intro, countries, openCountryId };
}

export function meta({ data }: Route.MetaArgs) {
  return [
    { title: data?.home?.headline ? `${data.home.headline} | Legal Self-Help` : "Legal Self-Help" },
    { name: "description", content: data?.home?.subHeadline ?? "Guided legal interviews and documents." },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { home, countries, openCountryId } = loaderData;
  return (
    <div className="page">
      <section className="intro" aria-labelledby="intro-title">
        <h1 id="intro-title">{home?.headline ?? "Legal Self-Help"}</h1>
        {home?.subHeadline ? <p className="intro__sub">{home.subHeadline}</p> : null}
        {home?.bodyHtml ? <Prose html={home.bodyHtml} /> : null}
      </section>
      <CountryAccordion countries={countries} openCountryId={openCountryId} />
    </div>
  );
}
