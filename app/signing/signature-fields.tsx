import type { FieldMetadata } from "@conform-to/react";
import { useT } from "~/i18n/react";
import { CheckboxField, TextField } from "~/ui/form";

/**
 * The signature's fields, for the person and for another signer alike: the full name, typed (the signature,
 * without scripts too), and, where scripts run, a drawing as well (public/scripts/signature-pad.js builds it in
 * the hidden area: the typed name is always there beside it, for keyboards and screen readers); then the plain
 * statement of intent, to tick.
 */
export function SignatureFields({
  fullName,
  drawing,
  confirm,
}: {
  fullName: FieldMetadata<string | undefined>;
  drawing: FieldMetadata<string | undefined>;
  confirm: FieldMetadata<string | undefined>;
}) {
  const t = useT();
  return (
    <>
      <fieldset className="fieldset signature-fieldset">
        <legend className="fieldset__legend">{t.t("signing.fields.legend")}</legend>
        <TextField field={fullName} label={t.t("signing.fields.fullName")} hint={t.t("signing.fields.fullNameHint")} autoComplete="name" />
        <div className="signature-pad" data-signature-pad="" data-clear={t.t("signing.fields.clear")} data-canvas-label={t.t("signing.fields.canvas")} hidden>
          <p className="field__label" id="signature-pad-label">
            {t.t("signing.fields.drawLabel")}
          </p>
          <p className="field__hint" id="signature-pad-hint">
            {t.t("signing.fields.drawHint")}
          </p>
        </div>
        <input type="hidden" name={drawing.name} defaultValue="" data-signature-drawing="" />
      </fieldset>
      <CheckboxField field={confirm} label={t.t("signing.fields.confirm")} />
    </>
  );
}

/**
 * A signature as it shows on the page: typed, "/s/ Name"; then, typed or drawn, "Signed electronically by Name on
 * 27 November 2026" (a drawn one is in the document itself).
 */
export function TypedSignature({ name, signedAt, method }: { name: string; signedAt: string; method: "typed" | "drawn" | null }) {
  const t = useT();
  return (
    <div className="typed-signature">
      {method === "drawn" ? null : (
        <p className="typed-signature__mark" translate="no">
          /s/ {name}
        </p>
      )}
      <p className="typed-signature__line">{t.t("signing.signedBy", { name, date: t.date(signedAt, { day: "numeric", month: "long", year: "numeric" }) })}</p>
    </div>
  );
}
