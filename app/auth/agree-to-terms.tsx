import { RichText } from "~/i18n/react";

/** "By creating an account you agree to our Terms & Conditions and our Privacy Policy." (also the invitation's). */
export function AgreeToTerms() {
  return (
    <RichText
      id="auth.signUp.agree"
      tags={{
        terms: (words) => <a href="/legal/terms-and-conditions">{words}</a>,
        privacy: (words) => <a href="/legal/privacy-policies">{words}</a>,
      }}
    />
  );
}
