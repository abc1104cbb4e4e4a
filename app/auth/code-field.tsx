import type { FieldMetadata } from "@conform-to/react";
import { TextField } from "~/ui/form";

/** The 6-digit code of an authenticator app: numeric keyboard, filled in by the phone where it can. */
export function CodeField({ field }: { field: FieldMetadata<string | undefined> }) {
  return (
    <TextField
      field={field}
      label="Verification code"
      hint="6 digits, for example 123456"
      autoComplete="one-time-code"
      inputMode="numeric"
    />
  );
}
