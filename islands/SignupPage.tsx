/** The /signup island: company self-registration (islands/signup/SignupForm.tsx). */
import { useLeaveIfSignedIn } from "./login/signed_in.ts";
import { SignupForm } from "./signup/SignupForm.tsx";
import type { RegisterPlan, SignupStatus } from "./signup/status.ts";

/** Props of the SignupPage island. */
export interface SignupPageProps {
  /** The sign-up switches and plans read on the server, or null (then read here). */
  initial: { status: SignupStatus; plans: RegisterPlan[] } | null;
}

/** The sign-up form; a visitor with a session goes to /. */
export default function SignupPage({ initial }: SignupPageProps) {
  useLeaveIfSignedIn();
  return <SignupForm initial={initial} />;
}
