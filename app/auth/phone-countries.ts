import { countries } from "countries-list";
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js/min";

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

/** What a phone number may hold as people type it: digits, spaces, dashes, dots, brackets and a leading plus. */
const TYPED_PHONE = /^\+?[\d\s\-.()]+$/;

/**
 * A phone number as typed ("+65 9123 4567", "(020) 7946 0958", "9123-4567") for the chosen country, stored
 * normalised: the country its calling code names (a leading plus may name another than the one chosen), and the
 * number in E.164 ("+6591234567"), read by libphonenumber-js (a trunk 0 dropped). The product's own rule holds on
 * the national number: 1 to 11 digits. Null when it is not a phone number.
 */
export function normalisedPhone(countryCode: string, typed: string): { country: PhoneCountry; e164: string } | null {
  const chosen = phoneCountry(countryCode);
  const text = typed.trim();
  if (!chosen || !TYPED_PHONE.test(text) || (text.match(/\+/g) ?? []).length > 1) return null;
  const parsed = parsePhoneNumberFromString(text, chosen.code as CountryCode);
  const country = (parsed?.country && phoneCountry(parsed.country)) || chosen;
  const national = parsed?.isPossible() ? parsed.nationalNumber : text.startsWith("+") ? null : text.replace(/\D/g, "");
  if (national === null || !/^\d{1,11}$/.test(national)) return null;
  return { country, e164: `${country.phoneCode}${national}` };
}
