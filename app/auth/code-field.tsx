import type { FieldMetadata } from "@conform-to/react";
import { useT } from "~/i18n/react";
import { TextField } from "~/ui/form";

/** The 6-digit code of an authenticator app: numeric keyboard, filled in by the phone where it can. */
export function CodeField({ field, label }: { field: FieldMetadata<string | undefined>; label?: string }) {
  const { t } = useT();
  return (
    <TextField
      field={field}
      label={label ?? t("auth.field.code")}
      hint={t("auth.field.codeHint")}
      autoComplete="one-time-code"
      inputMode="numeric"
    />
  );
}
