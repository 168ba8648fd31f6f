/**
 * The super user's "mark paid by hand" (issue #21): a reason of 3 to 500 characters (the
 * server's ManualPayInput, checked here with its own messages), then POST /invoices/{id}/pay,
 * which settles the invoice like a provider's payment (renewal, live event, audit row).
 */
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { FormDialog, TextField, useSchemaForm } from "../ui/form.tsx";
import type { InvoiceRow } from "./invoice_rows.ts";

/** Props of ManualPayDialog. */
export interface ManualPayDialogProps {
  invoice: InvoiceRow;
  onClose: () => void;
  /** The invoice as the server answers it once paid. */
  onPaid: (invoice: InvoiceRow) => void;
}

/** Asks the reason and marks `invoice` paid. */
export function ManualPayDialog({ invoice, onClose, onPaid }: ManualPayDialogProps) {
  const form = useSchemaForm<{ reason: string }>({
    schema: "ManualPayInput",
    initial: { reason: "" },
    onSubmit: async ({ reason }) => {
      const paid = await api<InvoiceRow>("POST", `/invoices/${invoice.id}/pay`, { reason });
      onPaid({ ...invoice, ...paid });
      showToast("success", t("financeiro.markedPaid"));
      onClose();
    },
  });
  const who = invoice.companyName ? `${invoice.companyName} · ${invoice.detail}` : invoice.detail;
  return (
    <FormDialog open onOpenChange={(o) => !o && onClose()} title={t("financeiro.markPaidTitle")} form={form} submitLabel={t("financeiro.markPaid")} testId="manual-pay">
      <p className="form-full billing-muted">{who}</p>
      <TextField form={form} name="reason" label={t("financeiro.reason")} hint={t("financeiro.reasonHint")} rows={3} className="form-full" autoFocus />
    </FormDialog>
  );
}
