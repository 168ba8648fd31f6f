/**
 * The login page's island (spec 000 §4). Sign-up and password recovery are islands of their
 * own (SignupPage, ForgotPasswordPage), so /login loads none of their code.
 */
import { LoginForm } from "./login/LoginForm.tsx";
import { useLeaveIfSignedIn } from "./login/signed_in.ts";

/** Props of the Login island (none). */
export type LoginProps = Record<string, never>;

/** The login form; a visitor with a session goes to /. */
export default function Login(_props: LoginProps) {
  useLeaveIfSignedIn();
  return <LoginForm />;
}
