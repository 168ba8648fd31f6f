/**
 * The public pages' island: the login form (POST /auth/login; token to localStorage, then
 * /tickets), and the signup and password-recovery placeholders. A visitor who already has a
 * token is sent to / (the token is only in the browser, so the check runs here).
 */
import { type FormEvent, useEffect, useState } from "react";
import { Eye, EyeOff } from "lucide-react";
import { api, ApiError, storeToken, storedToken, subscriptionExpired } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { toastError } from "./lib/toast.ts";
import { Toasts } from "./ui/Toasts.tsx";

/** Props of the Login island. */
export interface LoginProps {
  mode: "login" | "signup" | "forgot";
}

/** Login form, or the signup / recovery placeholder. */
export default function Login({ mode }: LoginProps) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [show, setShow] = useState(false);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (storedToken()) location.replace("/");
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!email || !password) return;
    setBusy(true);
    try {
      const result = await api<{ token: string }>("POST", "/auth/login", { email, password });
      storeToken(result.token);
      location.assign("/tickets");
    } catch (error) {
      if (error instanceof ApiError && error.status === 402) {
        subscriptionExpired(error.body as { message?: string; dueDate?: string });
        return;
      }
      toastError(error instanceof ApiError ? error.body ?? error.code : error);
      setBusy(false);
    }
  }

  if (mode !== "login") {
    return (
      <div className="card public-card">
        <h1>{t(mode === "signup" ? "signup.title" : "forgot.title")}</h1>
        <p className="muted">{t("construction.text", { path: mode === "signup" ? "/signup" : "/forgotpassword" })}</p>
        <a href="/login">{t("public.backToLogin")}</a>
      </div>
    );
  }

  return (
    <form className="card public-card" onSubmit={submit} noValidate>
      <div className="brand" aria-hidden="true">{t("app.name")}</div>
      <h1>{t("login.title")}</h1>
      <label className="field">
        <span>{t("login.email")}</span>
        <input
          type="email"
          name="email"
          autoComplete="email"
          autoFocus
          required
          value={email}
          aria-invalid={touched && !email}
          onChange={(e) => setEmail(e.target.value)}
        />
        {touched && !email && <small className="field-error">{t("login.required")}</small>}
      </label>
      <label className="field">
        <span>{t("login.password")}</span>
        <span className="input-with-button">
          <input
            type={show ? "text" : "password"}
            name="password"
            autoComplete="current-password"
            required
            value={password}
            aria-invalid={touched && !password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button type="button" className="icon-btn" aria-label={t("login.showPassword")} aria-pressed={show} onClick={() => setShow(!show)}>
            {show ? <EyeOff size={18} /> : <Eye size={18} />}
          </button>
        </span>
        {touched && !password && <small className="field-error">{t("login.required")}</small>}
      </label>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>{t("login.submit")}</button>
      <div className="public-links">
        <a href="/forgotpassword">{t("login.forgot")}</a>
        <a href="/signup">{t("login.signup")}</a>
      </div>
      <Toasts />
    </form>
  );
}
