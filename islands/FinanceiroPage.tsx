/**
 * /financeiro (spec 001 §2.20): the company's invoices (Detalhes, Valor in R$, Data Venc.,
 * Status Pago / Vencido / Em Aberto, PAGAR or a disabled PAGO; overdue unpaid rows tinted
 * red) with infinite scroll, and 'Faturas Pagas' below. PAGAR opens the checkout dialog
 * (islands/billing/CheckoutDialog.tsx). The super user's list holds every company's invoices
 * (a Empresa column) and may mark any unpaid one paid by hand with a reason
 * (billing/ManualPayDialog.tsx); PAGAR shows only on the own company's. Rows turn PAGO live on
 * `company-{id}-payment`. It is also the landing page of an expired company (spec 000 §4): a
 * banner with the login's 'expired on {date}' message, and the calls and the socket carry the
 * tab's billing-only token (islands/lib/api.ts, socket.ts; that socket gets payment events only).
 */
import { useEffect, useMemo, useState } from "react";
import { get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed } from "./lib/session.ts";
import { BadgeCheck } from "lucide-react";
import { AdminPage, type AdminPageProps, IconButton } from "./ui/AdminPage.tsx";
import { type ColumnDef, DataTable } from "./ui/DataTable.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { formatDueDate, formatPlanPrice, mayViewSubscription } from "./subscription/summary.ts";
import { type InvoiceRow, type InvoicesResponse, type PaymentRow, rowStatus } from "./billing/invoice_rows.ts";
import { addressOf, type CompanyAddress } from "./billing/AddressFields.tsx";
import { useBillingViewer, viewerPlan } from "./billing/billing_viewer.ts";
import { CheckoutDialog } from "./billing/CheckoutDialog.tsx";
import { ManualPayDialog } from "./billing/ManualPayDialog.tsx";
import { fetchPayments, PaidInvoices, paymentId, paymentsPage, type PaymentsResponse } from "./billing/PaidInvoices.tsx";

/** What the route reads on the server. */
export interface FinanceiroData {
  invoices: InvoicesResponse | null;
  payments: PaymentsResponse | null;
  /** The own company's billing address (admins only), to start the checkout's Dados step. */
  company: CompanyAddress | null;
}

/** Props of the FinanceiroPage island. */
export type FinanceiroPageProps = AdminPageProps<FinanceiroData>;

const invoiceId = (row: InvoiceRow) => row.id;

/** The invoices page. */
export default function FinanceiroPage({ initial, viewer: serverViewer }: FinanceiroPageProps) {
  const { viewer, expired } = useBillingViewer(serverViewer);
  const invoices = usePagedList<InvoiceRow>({
    initial: initial?.invoices ? { rows: initial.invoices.invoices, hasMore: initial.invoices.hasMore, count: initial.invoices.count } : null,
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<InvoicesResponse>(`/invoices/all${query({ searchParam, pageNumber })}`);
      return { rows: r.invoices, hasMore: r.hasMore, count: r.count };
    },
    rowId: invoiceId,
  });
  const payments = usePagedList<PaymentRow>({
    initial: initial?.payments ? paymentsPage(initial.payments) : null,
    fetchPage: (pageNumber) => fetchPayments(pageNumber),
    rowId: paymentId,
  });
  // A payment turns its row PAGO and adds a paid row (the event's invoice is the whole record).
  useLiveRows(viewer, invoices, {
    suffix: "payment",
    record: "invoice",
    idKey: "invoiceId",
    toRow: (record, current) => {
      void payments.reload();
      return current ? { ...current, ...(record as unknown as InvoiceRow) } : null;
    },
  });
  const [paying, setPaying] = useState<InvoiceRow | null>(null);
  const [marking, setMarking] = useState<InvoiceRow | null>(null);
  // The billing address the checkout starts from: read on the server, or here for an expired
  // company (GET /companies/{id} is a billing call), admins only.
  const [company, setCompany] = useState<CompanyAddress | null>(initial?.company ?? null);
  useEffect(() => {
    if (expired && viewer && !company && mayViewSubscription(viewer)) {
      get<CompanyAddress>(`/companies/${viewer.companyId}`).then(setCompany, () => {});
    }
  }, [viewer?.id]);
  const isSuper = viewer?.super === true;
  const now = Date.now();
  const showCompany = invoices.rows.some((r) => r.companyName !== undefined);

  const columns = useMemo<ColumnDef<InvoiceRow, unknown>[]>(() => [
    ...(showCompany ? [{ accessorKey: "companyName", header: t("financeiro.colCompany") } as ColumnDef<InvoiceRow, unknown>] : []),
    { accessorKey: "detail", header: t("financeiro.colDetail") },
    { accessorKey: "value", header: t("financeiro.colValue"), cell: ({ row }) => formatPlanPrice(row.original.value) },
    { accessorKey: "dueDate", header: t("financeiro.colDueDate"), cell: ({ row }) => formatDueDate(row.original.dueDate) },
    {
      id: "status",
      header: t("financeiro.colStatus"),
      accessorFn: (row) => rowStatus(row, now),
      cell: ({ row }) => {
        const status = rowStatus(row.original, now);
        return <span className={`billing-status billing-${status}`} data-status={status}>{t(`financeiro.status.${status}`)}</span>;
      },
    },
    {
      id: "action",
      header: t("financeiro.colAction"),
      enableSorting: false,
      enableHiding: false,
      meta: { className: "col-actions" },
      cell: ({ row }) =>
        row.original.status === "paid"
          ? <button type="button" className="btn btn-small" disabled>{t("financeiro.paidButton")}</button>
          : (
            <span className="cell-actions">
              {viewer && row.original.companyId === viewer.companyId && (
                <button type="button" className="btn btn-small btn-primary" onClick={() => setPaying(row.original)} data-testid="invoice-pay">
                  {t("financeiro.pay")}
                </button>
              )}
              {isSuper && (
                <IconButton label={t("financeiro.markPaid")} onClick={() => setMarking(row.original)}>
                  <BadgeCheck size={16} />
                </IconButton>
              )}
            </span>
          ),
    },
  ], [showCompany, viewer?.companyId, isSuper, Math.floor(now / 60_000)]);

  // Not gated (an expired company of any profile lands here), but only managers read invoices.
  const mayView = viewer ? allowed(viewer, "financeiro:view") : true;

  return (
    <AdminPage title={t("financeiro.title")} count={invoices.count} search={{ value: invoices.search, onChange: invoices.setSearch }} testId="financeiro-page">
      {expired && (
        <div className="billing-banner" role="alert" data-testid="expired-banner">
          <p>{expired.dueDate ? t("financeiro.expired", { date: formatDueDate(expired.dueDate) }) : t("financeiro.expiredNoDate")}</p>
          <a className="btn btn-small" href="/login">{t("public.backToLogin")}</a>
        </div>
      )}
      {mayView
        ? (
          <>
            <DataTable
              list={invoices}
              columns={columns}
              rowId={invoiceId}
              label={t("financeiro.title")}
              emptyText={t("financeiro.empty")}
              tint={(row) => (rowStatus(row, now) === "overdue" ? "danger" : undefined)}
              testId="invoices-table"
              rowTestId="invoice-row"
            />
            <PaidInvoices list={payments} />
          </>
        )
        : <p className="gate-notice" role="alert" data-testid="gate-notice">{t("gate.noPermission")}</p>}
      {paying && viewer && (
        <CheckoutDialog
          invoice={paying}
          plan={viewerPlan(viewer)}
          companyId={viewer.companyId}
          billingOnly={expired !== null}
          prefill={addressOf(company)}
          onClose={() => setPaying(null)}
          onPaid={(done) => {
            if (done.invoice) invoices.upsert(done.invoice);
            void payments.reload();
          }}
        />
      )}
      {marking && (
        <ManualPayDialog
          invoice={marking}
          onClose={() => setMarking(null)}
          onPaid={(paid) => {
            invoices.upsert(paid);
            void payments.reload();
          }}
        />
      )}
    </AdminPage>
  );
}
