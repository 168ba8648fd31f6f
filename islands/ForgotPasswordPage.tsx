/** The /forgotpassword island: the three recovery steps (islands/forgot/ForgotPassword.tsx). */
import { ForgotPassword } from "./forgot/ForgotPassword.tsx";
import { useLeaveIfSignedIn } from "./login/signed_in.ts";

/** Props of the ForgotPasswordPage island (none). */
export type ForgotPasswordPageProps = Record<string, never>;

/** The recovery steps; a visitor with a session goes to /. */
export default function ForgotPasswordPage(_props: ForgotPasswordPageProps) {
  useLeaveIfSignedIn();
  return <ForgotPassword />;
}
