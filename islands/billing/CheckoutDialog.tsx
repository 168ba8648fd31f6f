/**
 * The subscription checkout (spec 001 §2.21, §4 Checkout), opened by PAGAR on /financeiro and
 * by /subscription's button: 'Falta pouco!', the steps Dados, Personalizar, Revisar starting
 * at Personalizar (index 1), VOLTAR / PRÓXIMO and PAGAR on the last step. PAGAR checks the
 * address (Dados) with the server's own schema and, when it is incomplete, goes back to that
 * step with the §5 messages; otherwise it posts POST /subscription and shows the payment
 * screen, which waits for the payment's live event (an expired company's socket gets it too) and
 * ends with the renewal toast and the return to /.
 */
import { useEffect, useRef, useState } from "react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { Steps } from "../forgot/Steps.tsx";
import { Modal } from "../ui/Modal.tsx";
import { useSchemaForm } from "../ui/form.tsx";
import { AddressFields, type AddressValues, EMPTY_ADDRESS } from "./AddressFields.tsx";
import type { InvoiceRow } from "./invoice_rows.ts";
import { PaymentScreen, type SubscriptionResult } from "./PaymentScreen.tsx";
import { type CheckoutPlanInfo, CheckoutSummary, PlanCard } from "./PlanCard.tsx";
import { type PaymentDone, usePaymentWatch } from "./payment_watch.ts";
import { licenceRenewed } from "./renewal.ts";

/** Props of CheckoutDialog. */
export interface CheckoutDialogProps {
  invoice: InvoiceRow;
  plan: CheckoutPlanInfo | null;
  companyId: number;
  /** The page holds an expired company's billing-only token. */
  billingOnly: boolean;
  /** Address values known beforehand (the company's billing address). */
  prefill?: Partial<AddressValues>;
  onClose: () => void;
  /** Called when the invoice is paid (the page marks its row PAGO). */
  onPaid?: (done: PaymentDone) => void;
}

const DATA = 0;
const CUSTOMIZE = 1;
const REVIEW = 2;

/** The checkout dialog; see the module doc. */
export function CheckoutDialog({ invoice, plan, companyId, billingOnly, prefill, onClose, onPaid }: CheckoutDialogProps) {
  const [step, setStep] = useState(CUSTOMIZE);
  const [result, setResult] = useState<SubscriptionResult | null>(null);
  const stepRef = useRef(step);
  stepRef.current = step;
  const form = useSchemaForm<AddressValues>({
    schema: "CheckoutAddress",
    initial: { ...EMPTY_ADDRESS, ...prefill },
    onSubmit: async (address) => {
      if (stepRef.current !== REVIEW) return setStep((s) => s + 1);
      const price = invoice.value;
      const users = plan?.users ?? 0;
      const connections = plan?.connections ?? 0;
      const body = { ...address, plan: JSON.stringify({ price, users, connections }), price, users, connections, invoiceId: invoice.id };
      const answer = await api<SubscriptionResult>("POST", "/subscription", body);
      setResult(answer);
      showToast("success", t("checkout.subscribed"), "subscribed");
    },
  });
  // Billing data that arrives after the dialog opened fills only the fields still empty.
  const prefillKey = JSON.stringify(prefill ?? {});
  useEffect(() => {
    for (const [name, value] of Object.entries(prefill ?? {}) as [keyof AddressValues, string][]) {
      if (value && !form.values[name]) form.set(name, value);
    }
  }, [prefillKey]);
  // An address refused on a later step (PAGAR, or the server's 400) is fixed on Dados.
  const invalid = Object.values(form.errors).some(Boolean);
  useEffect(() => {
    if (invalid && stepRef.current !== DATA) setStep(DATA);
  }, [invalid, form.errors]);

  usePaymentWatch({
    companyId,
    invoiceId: invoice.id,
    active: result !== null,
    onPaid: (done) => {
      onPaid?.(done);
      licenceRenewed(done.dueDate, billingOnly);
    },
  });

  const next = () => (step === CUSTOMIZE ? setStep(REVIEW) : void form.submit());
  const footer = result
    ? <button type="button" className="btn" onClick={onClose}>{t("checkout.close")}</button>
    : (
      <>
        <button type="button" className="btn" onClick={() => setStep((s) => s - 1)} disabled={step === DATA || form.busy} data-testid="checkout-back">
          {t("checkout.back")}
        </button>
        <button type="button" className="btn btn-primary" onClick={next} disabled={form.busy} aria-busy={form.busy} data-testid="checkout-next">
          {form.busy ? t("checkout.paying") : t(step === REVIEW ? "checkout.pay" : "checkout.next")}
        </button>
      </>
    );

  return (
    <Modal open onOpenChange={(o) => !o && !form.busy && onClose()} title={t("checkout.title")} footer={footer} wide>
      <div className="checkout" data-testid="checkout">
        {result
          ? <PaymentScreen result={result} />
          : (
            <>
              <Steps current={step} labels={[t("checkout.stepData"), t("checkout.stepCustomize"), t("checkout.stepReview")]} />
              {step === DATA && (
                <form className="form-grid" onSubmit={form.submit} noValidate data-testid="checkout-address">
                  <AddressFields form={form} />
                </form>
              )}
              {step === CUSTOMIZE && <PlanCard plan={plan} />}
              {step === REVIEW && <CheckoutSummary invoice={invoice} plan={plan} billedTo={billedTo(form.values)} />}
            </>
          )}
      </div>
    </Modal>
  );
}

/** "Name, city - state" of the address, or '' before it is filled in. */
function billedTo(v: AddressValues): string {
  const place = [v.city, v.state].filter(Boolean).join(" - ");
  return [v.firstName, place].filter(Boolean).join(", ");
}
