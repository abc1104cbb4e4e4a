import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { listLanguages, listViewerOnlyLanguages, setOfferedLanguages } from "~/administration/languages.server";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.languages";

export async function loader() {
  return { languages: await listLanguages(), viewerOnly: listViewerOnlyLanguages() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const form = await request.formData();
  const offered = await setOfferedLanguages(form.getAll("offer").map(String), actor);
  return redirectWithToast("/admin/languages", { type: "success", message: `Languages offered: ${offered.length}.` });
}

export default function Languages({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage title="Languages">
      <p>
        The languages people can choose for the site. English is the default: every page exists in it. A language whose translation no
        fluent reader has reviewed yet is marked drafted; offer it only if you accept that.
      </p>
      <form method="post" className="form">
        <table className="data-table">
          <caption className="visually-hidden">Languages</caption>
          <thead>
            <tr>
              <th scope="col">Offer</th>
              <th scope="col">Language</th>
              <th scope="col">Translation</th>
              <th scope="col">Messages</th>
              <th scope="col">Corrections</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.languages.map((language) => (
              <tr key={language.code}>
                <td>
                  <input
                    type="checkbox"
                    className="field__checkbox"
                    name="offer"
                    value={language.code}
                    id={`offer-${language.code}`}
                    defaultChecked={language.offered}
                    disabled={language.isDefault}
                    aria-describedby={`review-${language.code}`}
                  />
                </td>
                <td>
                  <label htmlFor={`offer-${language.code}`}>
                    <span lang={language.code}>{language.name}</span>
                    {language.name === language.englishName ? null : <> ({language.englishName})</>}
                    {language.isDefault ? <> – the default, always offered</> : null}
                  </label>
                </td>
                <td id={`review-${language.code}`}>{language.review === "reviewed" ? "Reviewed" : "Drafted, not yet reviewed"}</td>
                <td>{language.messages}</td>
                <td>
                  {language.isDefault ? null : (
                    <a href={`/admin/content/words/${language.code}`}>
                      Correct words<span className="visually-hidden"> in {language.englishName}</span>
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="submit" className="button">
          Save languages
        </button>
      </form>
      <h2>Languages only interviews speak</h2>
      <p>
        A guide written in one of these languages runs with the interview&apos;s own words (buttons, hints, messages) in it; the rest of the site stays
        in the person&apos;s language.
      </p>
      <table className="data-table">
        <caption className="visually-hidden">Languages only interviews speak</caption>
        <thead>
          <tr>
            <th scope="col">Language</th>
            <th scope="col">Translation</th>
            <th scope="col">Messages</th>
            <th scope="col">Corrections</th>
          </tr>
        </thead>
        <tbody>
          {loaderData.viewerOnly.map((language) => (
            <tr key={language.code}>
              <td>
                <span lang={language.code} dir={language.dir}>
                  {language.name}
                </span>{" "}
                ({language.englishName})
              </td>
              <td>{language.review === "reviewed" ? "Reviewed" : "Drafted, not yet reviewed"}</td>
              <td>{language.messages}</td>
              <td>
                <a href={`/admin/content/words/${language.code}`}>
                  Correct words<span className="visually-hidden"> in {language.englishName}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </AdminPage>
  );
}
