/**
 * Links to the terms of use and privacy policy PDFs on the sign-up page (issue #16): each
 * shows when its document was uploaded and its setting (viewterms / viewprivacy) is on;
 * nothing renders when neither does. Server-rendered beside the sign-up island.
 */
import { t } from "../lib/i18n.ts";
import { useBranding } from "./context.ts";

/** The documents' links, or nothing. */
export function SignupDocLinks() {
  const { docs } = useBranding();
  if (!docs.termos && !docs.privacidade) return null;
  return (
    <nav className="signup-docs" aria-label={t("branding.docsLabel")}>
      {docs.termos && <a href={docs.termos} target="_blank" rel="noopener">{t("branding.terms")}</a>}
      {docs.privacidade && <a href={docs.privacidade} target="_blank" rel="noopener">{t("branding.privacy")}</a>}
    </nav>
  );
}
