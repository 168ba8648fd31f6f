/**
 * The public pages' island: the login form, the company sign-up (000 §4, 001 §2.7) and the
 * password recovery steps (002 §2.15), each in its own folder. A visitor who already has a
 * token is sent to / (the token is only in the browser, so the check runs here).
 */
import { useEffect } from "react";
import { storedToken } from "./lib/api.ts";
import { ForgotPassword } from "./forgot/ForgotPassword.tsx";
import { LoginForm } from "./login/LoginForm.tsx";
import { SignupForm } from "./signup/SignupForm.tsx";

/** Props of the Login island. */
export interface LoginProps {
  mode: "login" | "signup" | "forgot";
}

/** The page's form. */
export default function Login({ mode }: LoginProps) {
  useEffect(() => {
    if (storedToken()) location.replace("/");
  }, []);
  if (mode === "signup") return <SignupForm />;
  if (mode === "forgot") return <ForgotPassword />;
  return <LoginForm />;
}
