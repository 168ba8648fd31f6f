/**
 * The subscription page (spec 002 §2.9): the trial's end or the next charge date, the
 * billing e-mail and the plan, and 'Assine Agora' (during a trial) or 'Mudar Plano', which
 * opens the checkout dialog (islands/billing/CheckoutDialog.tsx) for the company's newest
 * unpaid invoice; without one the button is disabled and a line under it says so. The company and the first
 * page of invoices are read on the server (GET /companies/{id}, the admins' read of their own
 * company; GET /invoices/all); other profiles get the gate's 'Sem permissão para acessar!'.
 */
import { useEffect, useState } from "react";
import { CalendarClock, CreditCard, Mail, Package } from "lucide-react";
import { get } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { ErrorState, Skeleton } from "./ui/States.tsx";
import { mayViewSubscription, type SubscriptionCompany, subscriptionSummary } from "./subscription/summary.ts";
import { CheckoutDialog } from "./billing/CheckoutDialog.tsx";
import { addressOf, type CompanyAddress } from "./billing/AddressFields.tsx";
import { type InvoiceRow, type InvoicesResponse, invoiceToPay } from "./billing/invoice_rows.ts";
import { viewerPlan } from "./billing/billing_viewer.ts";
import type { SessionUser } from "./lib/session.ts";

/** Props of the SubscriptionPage island. */
export type SubscriptionPageProps = AdminPageProps<SubscriptionCompany> & {
  /** GET /invoices/all page 1 read on the server (null: fetched here). */
  invoices?: InvoicesResponse | null;
};

/** The subscription page. */
export default function SubscriptionPage({ initial, viewer: serverViewer, invoices: serverInvoices }: SubscriptionPageProps) {
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
  const [invoices, setInvoices] = useState<InvoiceRow[] | null>(serverInvoices?.invoices ?? null);
  useEffect(() => {
    if (invoices === null && allowedHere) get<InvoicesResponse>("/invoices/all?pageNumber=1").then((r) => setInvoices(r.invoices), () => setInvoices([]));
  }, [allowedHere]);

  if (allowedHere === false) {
    return <p className="gate-notice" role="alert" data-testid="gate-notice">{t("gate.noPermission")}</p>;
  }
  return (
    <AdminPage title={t("subscriptionPage.title")} testId="subscription">
      {company === null
        ? <Skeleton rows={3} />
        : company === "error"
        ? <ErrorState onRetry={load} />
        : <Summary company={company} invoices={invoices} viewer={viewer} />}
    </AdminPage>
  );
}

function Summary({ company, invoices, viewer }: { company: SubscriptionCompany; invoices: InvoiceRow[] | null; viewer: SessionUser | null }) {
  const s = subscriptionSummary(company);
  const [open, setOpen] = useState(false);
  const toPay = invoices ? invoiceToPay(invoices) : undefined;
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
      <button type="button" className="btn btn-primary" onClick={() => setOpen(true)} disabled={!toPay || !viewer} aria-busy={invoices === null} data-testid="subscription-action">
        <CreditCard size={18} aria-hidden="true" /> {t(s.trial ? "subscriptionPage.subscribe" : "subscriptionPage.changePlan")}
      </button>
      {invoices && !toPay && <p className="field-hint" data-testid="subscription-no-invoice">{t("subscriptionPage.noOpenInvoice")}</p>}
      {open && toPay && viewer && (
        <CheckoutDialog
          invoice={toPay}
          plan={viewerPlan(viewer)}
          companyId={viewer.companyId}
          billingOnly={false}
          prefill={addressOf(company as SubscriptionCompany & CompanyAddress)}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
