import type { FieldMetadata } from "@conform-to/react";
import { SelectField, TextField } from "~/ui/form";
import { phoneCountries } from "./phone-countries";

const countryOptions = phoneCountries.map((country) => ({
  value: country.code,
  label: `${country.name} (${country.phoneCode})`,
}));

/** The phone number of an account: its country code and its digits (signing up, and signing up through an invitation). */
export function PhoneFields({ country, number }: { country: FieldMetadata<string | undefined>; number: FieldMetadata<string | undefined> }) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Phone number</legend>
      <div className="phone-fields">
        <SelectField field={country} label="Country code" options={countryOptions} autoComplete="tel-country-code" />
        <TextField field={number} label="Phone number" type="tel" inputMode="numeric" autoComplete="tel-national" hint="Digits only, up to 11" />
      </div>
    </fieldset>
  );
}
