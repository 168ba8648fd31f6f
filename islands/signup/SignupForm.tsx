/**
 * Company self-registration (spec 000 §4, 001 §2.7, §3, §5, §9): company name, full name,
 * e-mail, phone, country, password, plan (GET /plans/register) and an optional referral
 * code, checked in the browser with the server's own SignupInput ('Too Short!', 'Invalid
 * email'…), sent to POST /companies/cadastro. The platform decides whether sign-up is open
 * (allowregister, GET /companies/cadastro); closed, the page says so and links to /login.
 * A taken company name or e-mail shows the spec's wording on its field. Success goes to
 * /login with a toast.
 */
import { useEffect, useMemo, useState } from "react";
import { api, ApiError } from "../lib/api.ts";
import { currentLang, t } from "../lib/i18n.ts";
import { SelectField, TextField, useSchemaForm } from "../ui/form.tsx";
import { ErrorState, Skeleton } from "../ui/States.tsx";
import { loginWithNotice } from "../login/notices.ts";
import { PublicCard } from "../login/PublicCard.tsx";
import { formatPlanPrice } from "../subscription/summary.ts";
import { countryChoices } from "./countries.ts";
import { fetchRegisterPlans, fetchSignupStatus, type RegisterPlan, type SignupStatus } from "./status.ts";

/** The form's values (the SignupInput body). */
interface SignupValues extends Record<string, unknown> {
  name: string;
  namecomplete: string;
  email: string;
  phone: string;
  pais: string;
  password: string;
  planId: number | null;
  indicator: string;
}

const EMPTY: SignupValues = { name: "", namecomplete: "", email: "", phone: "", pais: "BR", password: "", planId: null, indicator: "" };

type Loaded = { status: SignupStatus; plans: RegisterPlan[] };

/** The sign-up page's content: loading, closed, or the form. */
export function SignupForm({ initial }: { initial: Loaded | null }) {
  const [loaded, setLoaded] = useState<Loaded | "error" | null>(initial);
  const load = () => {
    setLoaded(null);
    Promise.all([fetchSignupStatus(), fetchRegisterPlans()]).then(
      ([status, plans]) => setLoaded({ status, plans }),
      () => setLoaded("error"),
    );
  };
  // The server read them for the first paint; without that (it failed), read them here.
  useEffect(() => {
    if (!initial) load();
  }, []);

  return (
    <PublicCard title={t("signup.title")} wide testId="signup">
      {loaded === null ? <Skeleton rows={3} /> : loaded === "error" ? <ErrorState onRetry={load} /> : loaded.status.open
        ? <SignupFields status={loaded.status} plans={loaded.plans} />
        : <p className="public-note" role="note" data-testid="signup-closed">{t("signupForm.closed")}</p>}
      <div className="public-links">
        <a href="/login">{t("signupForm.haveAccount")}</a>
      </div>
    </PublicCard>
  );
}

/** Rewrites a refusal the form can place on a field in the page's language. */
function fieldRefusal(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === "ERR_CONFLICT") return new ApiError(error.status, error.code, { ...error.body as object, fields: { name: t("signupForm.nameTaken") } });
  if (error.code === "ERR_DUPLICATED_EMAIL") {
    return new ApiError(error.status, error.code, { ...error.body as object, fields: { email: t("backendErrors.ERR_DUPLICATED_EMAIL") } });
  }
  return error;
}

/** What the chosen plan includes, under the plan picker. */
function planHint(plan: RegisterPlan | undefined): string | undefined {
  return plan && t("signupForm.planDetail", { users: plan.users, connections: plan.connections, queues: plan.queues });
}

function SignupFields({ status, plans }: { status: SignupStatus; plans: RegisterPlan[] }) {
  const countries = useMemo(() => countryChoices(currentLang()), []);
  const planChoices = plans.map((p) => ({ value: p.id, label: t("signupForm.planOption", { name: p.name, price: formatPlanPrice(p.value) }) }));
  const form = useSchemaForm<SignupValues>({
    schema: "SignupInput",
    initial: { ...EMPTY, planId: plans[0]?.id ?? null },
    check: (v) => ({ planId: v.planId ? undefined : t("signupForm.planRequired") }),
    onSubmit: async (values) => {
      try {
        await api("POST", "/companies/cadastro", values);
      } catch (error) {
        throw fieldRefusal(error);
      }
      location.assign(loginWithNotice("signedUp"));
    },
  });

  return (
    <form className="form-grid signup-form" onSubmit={form.submit} noValidate data-testid="signup-form">
      <p className="public-note">{t("signupForm.trial", { days: status.trialDays })}</p>
      <TextField form={form} name="name" label={t("signupForm.company")} autoFocus />
      <TextField form={form} name="namecomplete" label={t("signupForm.fullName")} />
      <TextField form={form} name="email" label={t("signupForm.email")} type="email" />
      <TextField form={form} name="phone" label={t("signupForm.phone")} type="tel" />
      <SelectField form={form} name="pais" label={t("signupForm.country")} options={countries} />
      <TextField form={form} name="password" label={t("signupForm.password")} type="password" />
      <SelectField
        form={form}
        name="planId"
        label={t("signupForm.plan")}
        options={planChoices}
        hint={planChoices.length === 0 ? t("signupForm.noPlans") : planHint(plans.find((p) => p.id === form.values.planId))}
      />
      <TextField form={form} name="indicator" label={t("signupForm.indicator")} />
      <button type="submit" className="btn btn-primary btn-block" disabled={form.busy} data-testid="signup-submit">
        {form.busy ? t("common.saving") : t("signupForm.submit")}
      </button>
    </form>
  );
}
