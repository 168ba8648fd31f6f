/** /login: the sign-in form (public; a visitor with a session goes to /), under the uploaded login logo. */
import Login, { type LoginProps } from "../islands/Login.tsx";
import { BrandLogo } from "../islands/branding/BrandLogo.tsx";
import type { SignupStatus } from "../islands/signup/status.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PublicPageLoad } from "../server/pages/loader.ts";

/** The public pages' stylesheet (static/pages/public.css). */
export const css = "public";

/** Whether the login page links to sign-up (GET /companies/cadastro), read on the server. */
export async function loadPublic(l: PublicPageLoad): Promise<boolean | null> {
  return (await l.api<SignupStatus>("/companies/cadastro"))?.linked ?? null;
}

/** The login page. */
export default function LoginPage({ ctx, data }: PageProps) {
  return (
    <main className="public-page">
      <BrandLogo place="login" />
      <Island<LoginProps> ctx={ctx} name="Login" component={Login} props={{ signupLinked: data ?? null }} />
    </main>
  );
}
