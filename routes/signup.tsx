/** /signup: company self-registration (public; the form belongs to the signup area). */
import Login from "../islands/Login.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";

/** The public pages' stylesheet (static/pages/public.css). */
export const css = "public";

/** The signup page. */
export default function SignupPage({ ctx }: PageProps) {
  return (
    <main className="public-page">
      <Island ctx={ctx} name="Login" component={Login} props={{ mode: "signup" as const }} />
    </main>
  );
}
