/** /forgotpassword: password recovery (public; the steps belong to the recovery area). */
import Login from "../islands/Login.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";

/** The public pages' stylesheet (static/pages/public.css). */
export const css = "public";

/** The password recovery page. */
export default function ForgotPasswordPage({ ctx }: PageProps) {
  return (
    <main className="public-page">
      <Island ctx={ctx} name="Login" component={Login} props={{ mode: "forgot" as const }} />
    </main>
  );
}
