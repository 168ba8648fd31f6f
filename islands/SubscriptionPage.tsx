/**
 * The subscription page (spec 002 §2.9): the trial's end or the next charge date, the
 * billing e-mail and the plan, and 'Assine Agora' (during a trial) or 'Mudar Plano', a link
 * to /financeiro until the billing issue's payment dialog lands. The company is read on the
 * server (GET /companies/{id}, the admins' read of their own company); other profiles get
 * the gate's 'Sem permissão para acessar!'.
 */
import { useEffect, useState } from "react";
import { CalendarClock, CreditCard, Mail, Package } from "lucide-react";
import { get } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { ErrorState, Skeleton } from "./ui/States.tsx";
import { mayViewSubscription, type SubscriptionCompany, subscriptionSummary } from "./subscription/summary.ts";

/** Props of the SubscriptionPage island. */
export type SubscriptionPageProps = AdminPageProps<SubscriptionCompany>;

/** The subscription page. */
export default function SubscriptionPage({ initial, viewer: serverViewer }: SubscriptionPageProps) {
  const viewer = useViewer(serverViewer);
  const [company, setCompany] = useState<SubscriptionCompany | "error" | null>(initial);
  const allowedHere = viewer ? mayViewSubscription(viewer) : null;
  const load = () => {
    if (!viewer) return;
    setCompany(null);
    get<SubscriptionCompany>(`/companies/${viewer.companyId}`).then(setCompany, () => setCompany("error"));
  };
  useEffect(() => {
    if (company === null && allowedHere) load();
  }, [allowedHere]);

  if (allowedHere === false) {
    return <p className="gate-notice" role="alert" data-testid="gate-notice">{t("gate.noPermission")}</p>;
  }
  return (
    <AdminPage title={t("subscriptionPage.title")} testId="subscription">
      {company === null ? <Skeleton rows={3} /> : company === "error" ? <ErrorState onRetry={load} /> : <Summary company={company} />}
    </AdminPage>
  );
}

function Summary({ company }: { company: SubscriptionCompany }) {
  const s = subscriptionSummary(company);
  return (
    <div className="card subscription-card">
      {s.trial && <span className="badge subscription-trial">{t("subscriptionPage.trialBadge")}</span>}
      <dl className="subscription-facts">
        <div>
          <dt><CalendarClock size={18} aria-hidden="true" /> {t(s.trial ? "subscriptionPage.trialEnds" : "subscriptionPage.nextCharge")}</dt>
          <dd data-testid="subscription-due">{s.dueDate ?? t("subscriptionPage.noDueDate")}</dd>
        </div>
        <div>
          <dt><Mail size={18} aria-hidden="true" /> {t("subscriptionPage.billingEmail")}</dt>
          <dd data-testid="subscription-email">{s.billingEmail}</dd>
        </div>
        <div>
          <dt><Package size={18} aria-hidden="true" /> {t("subscriptionPage.plan")}</dt>
          <dd>{s.plan ? t("subscriptionPage.planDetail", s.plan) : t("subscriptionPage.noPlan")}</dd>
        </div>
      </dl>
      <a className="btn btn-primary" href="/financeiro" data-testid="subscription-action">
        <CreditCard size={18} aria-hidden="true" /> {t(s.trial ? "subscriptionPage.subscribe" : "subscriptionPage.changePlan")}
      </a>
    </div>
  );
}
