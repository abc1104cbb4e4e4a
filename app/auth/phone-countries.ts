import { countries } from "countries-list";

export interface PhoneCountry {
  /** ISO 3166 alpha-2 code, the value the form sends. */
  code: string;
  name: string;
  /** "+65" */
  phoneCode: string;
}

/** About 250 countries and territories with their calling code, by name. */
export const phoneCountries: PhoneCountry[] = Object.entries(countries)
  .map(([code, country]) => ({ code, name: country.name, phoneCode: `+${country.phone[0]}` }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));

/** Singapore: the spec's default +65. */
export const DEFAULT_PHONE_COUNTRY = "SG";

export function phoneCountry(code: string): PhoneCountry | undefined {
  return phoneCountries.find((country) => country.code === code);
}
