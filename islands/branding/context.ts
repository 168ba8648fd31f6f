/**
 * The platform's branding during a server render (server/pages/mod.ts provides it per
 * request). Read only by server-rendered parts of public pages (BrandLogo, SignupDocLinks),
 * never inside an island: an island hydrates without this provider.
 */
import { createContext, useContext } from "react";
import type { Branding } from "../../domain/branding.ts";

/** No colours, no uploads: what a render without a provider sees. */
export const NO_BRANDING: Branding = { css: "", logos: {}, docs: {} };

/** The branding of the page being rendered. */
export const BrandingContext = createContext<Branding>(NO_BRANDING);

/** The branding of the page being rendered (server side). */
export function useBranding(): Branding {
  return useContext(BrandingContext);
}
