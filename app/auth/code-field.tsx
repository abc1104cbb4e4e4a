import type { FieldMetadata } from "@conform-to/react";
import { TextField } from "~/ui/form";

/** The 6-digit code of an authenticator app: numeric keyboard, filled in by the phone where it can. */
export function CodeField({ field, label = "Verification code" }: { field: FieldMetadata<string | undefined>; label?: string }) {
  return (
    <TextField
      field={field}
      label={label}
      hint="6 digits, for example 123456"
      autoComplete="one-time-code"
      inputMode="numeric"
    />
  );
}
