/**
 * 'Faturas Pagas' (spec 001 §2.20): Fatura, Valor, Data Pag. and an NF-e button that only
 * toasts 'Em breve', from GET /payments (newest first), with its own infinite scroll.
 */
import { useMemo } from "react";
import { FileText } from "lucide-react";
import { get, query } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { type ColumnDef, DataTable } from "../ui/DataTable.tsx";
import type { PagedList, PageResult } from "../ui/use_paged_list.ts";
import { formatPlanPrice } from "../subscription/summary.ts";
import type { PaymentRow } from "./invoice_rows.ts";

/** GET /payments body: a list, or a page of one. */
export type PaymentsResponse = PaymentRow[] | { payments: PaymentRow[]; count?: number; hasMore?: boolean };

/** GET /payments as a page of the paged list. */
export function paymentsPage(body: PaymentsResponse): PageResult<PaymentRow> {
  if (Array.isArray(body)) return { rows: body, hasMore: false, count: body.length };
  return { rows: body.payments, hasMore: body.hasMore ?? false, count: body.count };
}

/** Fetches page `pageNumber` of GET /payments. */
export async function fetchPayments(pageNumber: number): Promise<PageResult<PaymentRow>> {
  return paymentsPage(await get<PaymentsResponse>(`/payments${query({ pageNumber })}`));
}

/** The row id of a payment. */
export const paymentId = (p: PaymentRow) => p.id;

/** The paid invoices' table. */
export function PaidInvoices({ list }: { list: PagedList<PaymentRow> }) {
  const columns = useMemo<ColumnDef<PaymentRow, unknown>[]>(() => [
    {
      id: "invoice",
      header: t("financeiro.colInvoice"),
      accessorFn: (p) => p.invoice,
      cell: ({ row }) => (
        <span>
          #{row.original.invoice}
          {row.original.detail && <span className="billing-muted"> · {row.original.detail}</span>}
        </span>
      ),
    },
    { accessorKey: "value", header: t("financeiro.colValue"), cell: ({ row }) => formatPlanPrice(row.original.value) },
    { accessorKey: "paidAt", header: t("financeiro.colPaidAt"), cell: ({ row }) => (row.original.paidAt ? formatDate(row.original.paidAt) : "") },
    {
      id: "nfe",
      header: () => <span className="sr-only">{t("financeiro.nfe")}</span>,
      enableSorting: false,
      enableHiding: false,
      meta: { className: "col-actions" },
      cell: () => (
        <button type="button" className="btn btn-small" onClick={() => showToast("info", t("financeiro.nfeSoon"), "nfe")}>
          <FileText size={16} aria-hidden="true" /> {t("financeiro.nfe")}
        </button>
      ),
    },
  ], []);
  return (
    <section className="billing-paid-section" aria-labelledby="billing-paid-title">
      <h2 id="billing-paid-title" className="billing-subtitle">{t("financeiro.paidTitle")}</h2>
      <DataTable
        list={list}
        columns={columns}
        rowId={paymentId}
        label={t("financeiro.paidTitle")}
        emptyText={t("financeiro.paidEmpty")}
        testId="payments-table"
      />
    </section>
  );
}
