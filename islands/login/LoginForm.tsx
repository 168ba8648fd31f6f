/**
 * The login form (POST /auth/login; token to localStorage, then /tickets). It shows the
 * notice a finished public flow left (`?notice=`), and links to sign-up only when the
 * platform says so (viewregister with allowregister, GET /companies/cadastro).
 */
import { type FormEvent, useEffect, useState } from "react";
import { Eye, EyeOff } from "lucide-react";
import { api, ApiError, storeToken, subscriptionExpired } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { fetchSignupStatus } from "../signup/status.ts";
import { LOGIN_NOTICES, noticeIn } from "./notices.ts";
import { PublicCard } from "./PublicCard.tsx";

/** The login form. */
export function LoginForm({ signupLinked: linkedOnServer }: { signupLinked: boolean | null }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [show, setShow] = useState(false);
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const [signupLinked, setSignupLinked] = useState(linkedOnServer ?? false);
  const [elsewhere, setElsewhere] = useState(false);

  useEffect(() => {
    const notice = noticeIn(location.search);
    // The second login's notice stays on the card (a toast would be gone before it is read).
    if (notice === LOGIN_NOTICES.elsewhere) setElsewhere(true);
    else if (notice) showToast("success", t(notice));
    if (notice) history.replaceState(null, "", location.pathname);
    if (linkedOnServer === null) fetchSignupStatus().then((s) => setSignupLinked(s.linked), () => setSignupLinked(false));
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

  return (
    <PublicCard title={t("login.title")}>
      {elsewhere && <p className="login-notice" role="alert" data-testid="login-elsewhere">{t("auth.sessionElsewhere")}</p>}
      <form onSubmit={submit} noValidate>
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
      </form>
      <div className="public-links">
        <a href="/forgotpassword">{t("login.forgot")}</a>
        {signupLinked && <a href="/signup">{t("login.signup")}</a>}
      </div>
    </PublicCard>
  );
}
