/**
 * /signup: company self-registration (public). The sign-up switches and the plans are read on
 * the server, so the form (or the "closed" note) is in the first paint; the uploaded sign-up
 * logo above it and the terms/privacy links below it when the platform shows them.
 */
import SignupPage, { type SignupPageProps } from "../islands/SignupPage.tsx";
import { BrandLogo } from "../islands/branding/BrandLogo.tsx";
import { SignupDocLinks } from "../islands/branding/SignupDocLinks.tsx";
import type { RegisterPlan, SignupStatus } from "../islands/signup/status.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PublicPageLoad } from "../server/pages/loader.ts";

/** The public pages' stylesheet (static/pages/public.css). */
export const css = "public";

/** GET /companies/cadastro and GET /plans/register, as the form would read them. */
export async function loadPublic(l: PublicPageLoad): Promise<SignupPageProps["initial"]> {
  const [status, plans] = await Promise.all([l.api<SignupStatus>("/companies/cadastro"), l.api<RegisterPlan[]>("/plans/register")]);
  return status && plans ? { status, plans } : null;
}

/** The signup page. */
export default function SignupRoute({ ctx, data }: PageProps) {
  return (
    <main className="public-page">
      <BrandLogo place="signup" />
      <Island<SignupPageProps> ctx={ctx} name="SignupPage" component={SignupPage} props={{ initial: data ?? null }} />
      <SignupDocLinks />
    </main>
  );
}
