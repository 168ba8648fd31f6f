/** /login: the sign-in form (public; a visitor with a session goes to /), under the uploaded login logo. */
import Login from "../islands/Login.tsx";
import { BrandLogo } from "../islands/branding/BrandLogo.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";

/** The public pages' stylesheet (static/pages/public.css). */
export const css = "public";

/** The login page. */
export default function LoginPage({ ctx }: PageProps) {
  return (
    <main className="public-page">
      <BrandLogo place="login" />
      <Island ctx={ctx} name="Login" component={Login} props={{}} />
    </main>
  );
}
