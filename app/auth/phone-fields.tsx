import type { FieldMetadata } from "@conform-to/react";
import { useT } from "~/i18n/react";
import { PSEUDO_LANGUAGE } from "~/i18n/languages";
import type { Translator } from "~/i18n/translator";
import { SelectField, TextField } from "~/ui/form";
import { phoneCountries } from "./phone-countries";

// Per translator (a new one comes with the organisation's published corrections).
const optionsByLanguage = new WeakMap<Translator, { value: string; label: string }[]>();

/**
 * The countries with their calling code, by name in the page's language: English keeps the names it has always
 * shown; another language names each country as Intl's data does in it ("Singapour", "新加坡"), sorted in it.
 */
function countryOptions(t: Translator): { value: string; label: string }[] {
  const cached = optionsByLanguage.get(t);
  if (cached) return cached;
  const english = t.lang === "en" || t.lang === PSEUDO_LANGUAGE;
  const locale = t.lang === "fr" ? "fr-CA" : t.lang;
  const names = english ? null : new Intl.DisplayNames([locale, "en"], { type: "region", fallback: "none" });
  const named = phoneCountries.map((country) => ({ country, name: names?.of(country.code) ?? country.name }));
  if (!english) named.sort((a, b) => a.name.localeCompare(b.name, locale));
  const options = named.map(({ country, name }) => ({ value: country.code, label: t.t("auth.phone.countryOption", { country: name, code: country.phoneCode }) }));
  optionsByLanguage.set(t, options);
  return options;
}

/** A phone number with its country-code selector (sign-up, an invitation's sign-up, edit profile), typed as people write it. */
export function PhoneFields({ country, number }: { country: FieldMetadata<string | undefined>; number: FieldMetadata<string | undefined> }) {
  const t = useT();
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">{t.t("auth.phone.legend")}</legend>
      <div className="phone-fields">
        <SelectField field={country} label={t.t("auth.phone.country")} options={countryOptions(t)} autoComplete="tel-country-code" />
        <TextField field={number} label={t.t("auth.phone.number")} type="tel" autoComplete="tel-national" hint={t.t("auth.phone.numberHint")} />
      </div>
    </fieldset>
  );
}
