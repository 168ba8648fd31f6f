/** /login: the sign-in form (public; a visitor with a session goes to /). */
import Login from "../islands/Login.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";

/** The login page. */
export default function LoginPage({ ctx }: PageProps) {
  return (
    <main className="public-page">
      <Island ctx={ctx} name="Login" component={Login} props={{ mode: "login" as const }} />
    </main>
  );
}
