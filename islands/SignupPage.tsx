/** The /signup island: company self-registration (islands/signup/SignupForm.tsx). */
import { useLeaveIfSignedIn } from "./login/signed_in.ts";
import { SignupForm } from "./signup/SignupForm.tsx";

/** Props of the SignupPage island (none: the page reads the sign-up switches and plans). */
export type SignupPageProps = Record<string, never>;

/** The sign-up form; a visitor with a session goes to /. */
export default function SignupPage(_props: SignupPageProps) {
  useLeaveIfSignedIn();
  return <SignupForm />;
}
