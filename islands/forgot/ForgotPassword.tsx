/**
 * Password recovery (spec 002 §2.15, §5, §8): three steps, e-mail → code → new password,
 * then /login. The server mails the code and never returns it (domain/password_reset.ts):
 * step one asks for the mail (answered alike whether the address has an account or not,
 * so the toast says "if"), step two has
 * the server check the code ('Token válido' / 'Token inválido, tente novamente'), step three
 * sends the new password twice ('As novas senhas não são iguais') with the code, which the
 * server then uses up.
 */
import { useState } from "react";
import { api, ApiError } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { TextField, useSchemaForm } from "../ui/form.tsx";
import { loginWithNotice } from "../login/notices.ts";
import { PublicCard } from "../login/PublicCard.tsx";
import { Steps } from "./Steps.tsx";

type Step = 0 | 1 | 2;

/** The recovery steps. */
export function ForgotPassword() {
  const [step, setStep] = useState<Step>(0);
  const [email, setEmail] = useState("");
  const [token, setToken] = useState("");

  return (
    <PublicCard title={t("forgot.title")} testId="forgot">
      <Steps current={step} labels={[t("forgotFlow.stepEmail"), t("forgotFlow.stepToken"), t("forgotFlow.stepPassword")]} />
      {step === 0 && <EmailStep initial={email} onSent={(e) => (setEmail(e), setStep(1))} />}
      {step === 1 && <TokenStep email={email} onValid={(tok) => (setToken(tok), setStep(2))} onBack={() => setStep(0)} />}
      {step === 2 && <PasswordStep email={email} token={token} onTokenRefused={() => setStep(1)} />}
      <div className="public-links">
        <a href="/login">{t("public.backToLogin")}</a>
      </div>
    </PublicCard>
  );
}

/** Asks the server to mail a code to the address. */
async function requestCode(email: string): Promise<void> {
  await api("POST", "/users/sendemail", { email });
  showToast("success", t("forgotFlow.sent", { email }));
}

function EmailStep({ initial, onSent }: { initial: string; onSent: (email: string) => void }) {
  const form = useSchemaForm({
    schema: "ResetRequest",
    initial: { email: initial },
    onSubmit: async ({ email }) => {
      const address = email.trim().toLowerCase();
      await requestCode(address);
      onSent(address);
    },
  });
  return (
    <form className="form-grid" onSubmit={form.submit} noValidate data-testid="forgot-email">
      <p className="public-note">{t("forgotFlow.emailHelp")}</p>
      <TextField form={form} name="email" label={t("forgotFlow.email")} type="email" autoFocus />
      <button type="submit" className="btn btn-primary btn-block" disabled={form.busy}>{t("forgotFlow.send")}</button>
    </form>
  );
}

function TokenStep({ email, onValid, onBack }: { email: string; onValid: (token: string) => void; onBack: () => void }) {
  const [resending, setResending] = useState(false);
  const form = useSchemaForm({
    schema: "ResetTokenCheck",
    initial: { email, token: "" },
    onSubmit: async (values) => {
      await api("POST", "/users/checkToken", values);
      showToast("success", t("forgotFlow.tokenValid"));
      onValid(values.token);
    },
  });
  async function resend() {
    setResending(true);
    try {
      await requestCode(email);
    } catch (error) {
      toastError(error instanceof ApiError ? error.body ?? error.code : error);
    } finally {
      setResending(false);
    }
  }
  return (
    <form className="form-grid" onSubmit={form.submit} noValidate data-testid="forgot-token">
      <p className="public-note">{t("forgotFlow.tokenHelp", { email })}</p>
      <TextField form={form} name="token" label={t("forgotFlow.token")} autoFocus placeholder="XXXX-XXXX" />
      <button type="submit" className="btn btn-primary btn-block" disabled={form.busy}>{t("forgotFlow.check")}</button>
      <div className="public-links">
        <button type="button" className="btn btn-link" onClick={resend} disabled={resending}>{t("forgotFlow.resend")}</button>
        <button type="button" className="btn btn-link" onClick={onBack}>{t("forgotFlow.otherEmail")}</button>
      </div>
    </form>
  );
}

function PasswordStep({ email, token, onTokenRefused }: { email: string; token: string; onTokenRefused: () => void }) {
  const form = useSchemaForm({
    schema: "ResetPasswordInput",
    initial: { email, token, password: "", confirmPassword: "" },
    onSubmit: async (values) => {
      try {
        await api("POST", "/users/updatePassword", values);
      } catch (error) {
        // The code expired or was used meanwhile: back to the code step (the toast says why).
        if (error instanceof ApiError && error.code === "ERR_INVALID_RESET_TOKEN") onTokenRefused();
        throw error;
      }
      location.assign(loginWithNotice("passwordReset"));
    },
  });
  return (
    <form className="form-grid" onSubmit={form.submit} noValidate data-testid="forgot-password">
      <p className="public-note">{t("forgotFlow.passwordHelp")}</p>
      <TextField form={form} name="password" label={t("forgotFlow.password")} type="password" autoFocus />
      <TextField form={form} name="confirmPassword" label={t("forgotFlow.confirm")} type="password" />
      <button type="submit" className="btn btn-primary btn-block" disabled={form.busy}>{t("forgotFlow.save")}</button>
    </form>
  );
}
