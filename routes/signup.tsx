/** /signup: company self-registration (public; the form belongs to the signup area). */
import SignupPage from "../islands/SignupPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";

/** The public pages' stylesheet (static/pages/public.css). */
export const css = "public";

/** The signup page. */
export default function SignupRoute({ ctx }: PageProps) {
  return (
    <main className="public-page">
      <Island ctx={ctx} name="SignupPage" component={SignupPage} props={{}} />
    </main>
  );
}
