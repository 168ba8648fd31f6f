/**
 * The login page's island (spec 000 §4). Sign-up and password recovery are islands of their
 * own (SignupPage, ForgotPasswordPage), so /login loads none of their code.
 */
import { LoginForm } from "./login/LoginForm.tsx";
import { useLeaveIfSignedIn } from "./login/signed_in.ts";

/** Props of the Login island. */
export interface LoginProps {
  /** Whether to link to sign-up, as the server read it; null: read it here. */
  signupLinked: boolean | null;
}

/** The login form; a visitor with a session goes to /. */
export default function Login({ signupLinked }: LoginProps) {
  useLeaveIfSignedIn();
  return <LoginForm signupLinked={signupLinked} />;
}
