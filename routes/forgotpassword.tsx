/** /forgotpassword: password recovery (public; the steps belong to the recovery area). */
import ForgotPasswordPage from "../islands/ForgotPasswordPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";

/** The public pages' stylesheet (static/pages/public.css). */
export const css = "public";

/** The password recovery page. */
export default function ForgotPasswordRoute({ ctx }: PageProps) {
  return (
    <main className="public-page">
      <Island ctx={ctx} name="ForgotPasswordPage" component={ForgotPasswordPage} props={{}} />
    </main>
  );
}
