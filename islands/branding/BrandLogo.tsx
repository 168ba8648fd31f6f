/**
 * The uploaded logo of a public page (spec 001 §7 destinations `login` and `signup`), or
 * nothing when none was uploaded (the card's text brand stays). Server-rendered beside the
 * page's island, so the logo is in the first paint; the document's branding style hides the
 * card's text brand when a logo is shown (server/pages/document.ts).
 */
import { t } from "../lib/i18n.ts";
import { useBranding } from "./context.ts";

/** Props of BrandLogo. */
export interface BrandLogoProps {
  /** Which page's logo. */
  place: "login" | "signup";
}

/** The page's logo image, if one was uploaded. */
export function BrandLogo({ place }: BrandLogoProps) {
  const src = useBranding().logos[place];
  if (!src) return null;
  return <img className="brand-logo" src={src} alt={t("app.name")} data-testid={`brand-logo-${place}`} />;
}
