import type { FieldMetadata } from "@conform-to/react";
import { SelectField, TextField } from "~/ui/form";
import { phoneCountries } from "./phone-countries";

const countryOptions = phoneCountries.map((country) => ({
  value: country.code,
  label: `${country.name} (${country.phoneCode})`,
}));

/** A phone number with its country-code selector (sign-up, an invitation's sign-up, edit profile), typed as people write it. */
export function PhoneFields({ country, number }: { country: FieldMetadata<string | undefined>; number: FieldMetadata<string | undefined> }) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">Phone number</legend>
      <div className="phone-fields">
        <SelectField field={country} label="Country code" options={countryOptions} autoComplete="tel-country-code" />
        <TextField field={number} label="Phone number" type="tel" autoComplete="tel-national" hint="For example 9123 4567, or +65 9123 4567" />
      </div>
    </fieldset>
  );
}
