// The viewer speaks the guide's language (docs/decisions/0047): its own words from the guide's catalogue, the
// author's words as written, lang and dir on what it renders, numbers with Latin digits.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { englishMessage, type FieldError, type Guide, loadGuideObject, readDateBoxes, renderPage, startInterview, validatePage, type ValidationMessageId } from "~/a2j";
import { translator } from "~/i18n/translator";
import { progressLine } from "./progress";
import { interviewPageTitle, reviewTitle } from "./titles";
import { renderViewerDocument, ViewerContent } from "./viewer-document";
import { viewerMessage } from "./viewer-page";

const TODAY = 19797;

function guideWith(fields: unknown[], language = "fr"): Guide {
  const r = loadGuideObject({
    firstPage: "P",
    language,
    steps: [{ number: "0", text: "Début" }, { number: "1", text: "À propos de vous" }],
    pages: {
      P: { name: "P", step: 1, text: "<p>Parlez-nous de vous</p>", fields, buttons: [{ label: "", next: "Q" }] },
      Q: { name: "Q", step: 0, text: "<p>Suite</p>" },
    },
  });
  if (!r.ok) throw new Error(r.error);
  return r.guide;
}

function view(guide: Guide, language: string, errors: FieldError[] = []) {
  const started = startInterview(guide, TODAY);
  if (!started.ok) throw new Error(started.error.message);
  const page = renderPage(guide, started.state, TODAY, { errors, dates: { order: "DMY", style: "long", language } })!;
  return { page, title: "Guide", documentTitle: "Guide", action: "/viewer", preview: false, interviewId: null, saved: false, previewState: null, rephrasable: [], language };
}

const fields = [
  { type: "text", name: "Name TE", label: "Votre nom", required: true },
  { type: "datemdy", name: "Birth DA", label: "Date de naissance", required: true },
  { type: "gender", name: "Gender", label: "Genre" },
];

describe("the viewer's words in the guide's language", () => {
  it("a French guide: labels' (required), date boxes, progress, the default button, the error summary and the engine's messages in French; the author's words as written", () => {
    const guide = guideWith(fields);
    const { errors } = validatePage(guide.pages.P!, {}, TODAY);
    const html = renderToStaticMarkup(<ViewerContent view={view(guide, "fr", errors)} />);
    expect(html).toMatch(/^<div class="viewer" data-viewer="" lang="fr" dir="ltr"/);
    expect(html).toContain("Votre nom</span><span class=\"field__required\"> (obligatoire)</span>");
    expect(html).toContain('<p class="viewer__step">Étape 2 sur 2 : À propos de vous</p>');
    expect([...html.matchAll(/<label class="field__label" for="[^"]+">([^<]+)<\/label>/g)].map((m) => m[1])).toEqual(["Jour", "Mois", "Année"]);
    expect(html).toContain("Par exemple, 27 3 2007");
    expect(html).toContain('<h2 id="error-summary-title" class="error-summary__title">Il y a un problème</h2>');
    expect(html).toContain("Vous devez écrire une réponse dans l’espace en surbrillance avant de continuer.");
    expect(html).toContain("Vous devez entrer un jour, un mois et une année dans les espaces en surbrillance avant de continuer.");
    expect(html).toContain(">Femme<");
    expect(html).toContain('data-send-problem="Vos réponses n’ont pas pu être envoyées.');
    expect(html).toMatch(/<button[^>]*>Continuer<\/button>/);
    expect(html).not.toMatch(/\(required\)|Step 2|There is a problem|You must/);
  });

  it("an Arabic guide runs right to left, in the frame's document and on the viewer's first element", () => {
    const guide = guideWith(fields, "ar");
    const props = view(guide, "ar");
    const document = renderViewerDocument(props, "n");
    expect(document).toContain('<html lang="ar" dir="rtl">');
    expect(document).toContain('<div class="viewer" data-viewer="" lang="ar" dir="rtl"');
    expect(document).toContain('aria-label="مقابلة"');
    expect(document).toContain("الخطوة 2 من 2: À propos de vous");
  });

  it("a guide whose language has no catalogue is English, exactly as before", () => {
    const guide = guideWith(fields, "pt-BR");
    const html = renderToStaticMarkup(<ViewerContent view={{ ...view(guide, "en") }} />);
    expect(html).toContain('<span class="field__required"> (required)</span>');
    expect(html).toContain('<p class="viewer__step">Step 2 of 2: À propos de vous</p>');
    expect(html).toMatch(/<button[^>]*>Continue<\/button>/);
  });

  it("a page that says nothing is headed by the engine's \"Question\" in the guide's language", () => {
    const r = loadGuideObject({ firstPage: "P", language: "es", steps: [{ number: "0", text: "" }], pages: { P: { name: "P", step: 0, text: "", fields: [{ type: "text", name: "A TE", label: "" }], buttons: [{ label: "Seguir", next: "P" }] } } });
    if (!r.ok) throw new Error(r.error);
    const props = view(r.guide, "es");
    expect(renderToStaticMarkup(<ViewerContent view={props} />)).toContain('id="viewer-heading" tabindex="-1">Pregunta</h1>');
    expect(interviewPageTitle(props.page, { name: "Divorcio", sensitive: false }, translator("es"))).toBe("Pregunta – Divorcio | Autoayuda Legal");
    expect(interviewPageTitle(props.page, { name: "Divorce", sensitive: false })).toBe("Question – Divorce | Legal Self-Help");
  });

  it("Hebrew and Chaldean run right to left; Korean, Russian, Khmer left to right", () => {
    expect([translator("he").dir, translator("cld").dir, translator("ko").dir, translator("ru").dir, translator("km").dir]).toEqual(["rtl", "rtl", "ltr", "ltr", "ltr"]);
    expect(translator("ko").t("viewer.progress.step", { number: "2", count: "5" })).toBe("5단계 중 2단계");
    // A key only the product speaks falls back to English in a viewer-only language.
    expect(translator("ko").t("site.name")).toBe("Legal Self-Help");
  });
});

describe("the engine's messages", () => {
  const ids: ValidationMessageId[] = ["text", "textpick", "number", "numberdollar", "numberssn", "numberphone", "numberzip", "numberpick", "datemdy", "gender", "radio", "checkbox", "checkboxNOTA", "noChoices", "email", "dayRange", "monthRange", "yearDigits"];
  it("the English catalogue says each exactly as the engine does", () => {
    const en = translator("en");
    for (const id of ids) expect(viewerMessage(en, englishMessage({ id }), { id }), id).toBe(englishMessage({ id }));
    const withValues = [
      { id: "maxChars", values: { max: 60 } },
      { id: "numberBetween", values: { min: "1", max: "9" } },
      { id: "numberAtLeast", values: { min: "1", max: "" } },
      { id: "numberAtMost", values: { min: "", max: "9" } },
      { id: "dateBetween", values: { min: "1 January 2020", max: "2 January 2020" } },
      { id: "dateFrom", values: { min: "1 January 2020", max: "" } },
      { id: "dateUntil", values: { min: "", max: "2 January 2020" } },
      { id: "dateMissing", values: { boxes: "dayYear" } },
      { id: "dateMissing", values: { boxes: "month" } },
      { id: "realDay", values: { month: "February", monthEnglish: "February", year: 2023, days: 28 } },
    ] as const;
    for (const says of withValues) expect(viewerMessage(en, englishMessage(says), says), says.id).toBe(englishMessage(says));
  });

  it("in French: validation and the date boxes, the month named in French", () => {
    const fr = translator("fr");
    const guide = guideWith([{ type: "number", name: "Age NU", label: "Âge", min: "18", max: "120" }, { type: "text", name: "Note TE", label: "Note", maxChars: "5" }]);
    const { errors } = validatePage(guide.pages.P!, { "age nu": "7", "note te": "trop long" }, TODAY);
    expect(errors.map((e) => viewerMessage(fr, e.message, e.says))).toEqual(["Veuillez entrer un nombre entre 18 et 120.", "Veuillez utiliser au plus 5 caractères."]);
    const wrong = readDateBoxes({ day: "29", month: "2", year: "2023" }, "fr");
    expect(wrong.kind === "wrong" && viewerMessage(fr, wrong.message, wrong.says)).toBe("Le jour doit exister : février 2023 compte 28 jours.");
    const missing = readDateBoxes({ day: "", month: "3", year: "" }, "fr");
    expect(missing.kind === "wrong" && viewerMessage(fr, missing.message, missing.says)).toBe("La date doit comprendre un jour et une année.");
    // The author's own prompt stays as written.
    expect(viewerMessage(fr, "Écrivez votre âge", undefined)).toBe("Écrivez votre âge");
  });

  it("a message reference of the viewer's (an upload refused) is put into words", async () => {
    const { uploadMessage } = await import("./viewer-messages.server");
    expect(viewerMessage(translator("es"), uploadMessage("No files uploaded"))).toBe("No se subió ningún archivo");
    expect(viewerMessage(translator("en"), uploadMessage("No files uploaded"))).toBe("No files uploaded");
  });
});

describe("numbers of the viewer's own", () => {
  it("are written with Latin digits in every language, Arabic too", () => {
    const page = { progress: { step: { number: 2, of: 12 }, entry: { noun: "Entry", number: 3, of: 4, unnamed: true as const } }, step: { index: 1, number: "1", text: "" } };
    expect(progressLine(page, translator("ar"))).toBe("الخطوة 2 من 12 – بند 3 من 4");
    expect(progressLine(page)).toBe("Step 2 of 12 – Entry 3 of 4");
    expect(progressLine(page, translator("bn"))).toBe("12টির মধ্যে ধাপ 2 – 4টির মধ্যে এন্ট্রি 3");
  });

  it("titles name the step in the guide's language; English as before", () => {
    const page = { heading: "Vos revenus", progress: { step: { number: 2, of: 5 } }, errors: [1] };
    expect(interviewPageTitle(page, { name: "Divorce", sensitive: false })).toBe("Error: Vos revenus – Step 2 of 5 – Divorce | Legal Self-Help");
    expect(interviewPageTitle(page, { name: "Divorce", sensitive: true }, translator("fr"))).toBe("Erreur : Étape 2 sur 5 – Entrevue | Aide juridique autonome");
    expect(reviewTitle({ name: "Divorce", sensitive: false })).toBe("Check your answers – Divorce | Legal Self-Help");
  });
});
