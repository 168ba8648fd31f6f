/** /signup: company self-registration (public; the form belongs to the signup area). */
import Login from "../islands/Login.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";

/** The signup page. */
export default function SignupPage({ ctx }: PageProps) {
  return (
    <main className="public-page">
      <Island ctx={ctx} name="Login" component={Login} props={{ mode: "signup" as const }} />
    </main>
  );
}
