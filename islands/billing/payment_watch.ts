/**
 * Waiting for an invoice's payment on the checkout's payment screen (spec 001 §4 Checkout):
 * the live `company-{id}-payment` event with action CONCLUIDA carries the company's new due
 * date. An expired company's tab gets it too: its billing-only socket receives the company's
 * payment events and nothing else (server/realtime/auth.ts). A `resync` (the socket missed
 * events) asks GET /invoices/{id} once, and GET /auth/me for the new due date if it was paid.
 */
import { useEffect, useRef } from "react";
import { get } from "../lib/api.ts";
import { channelName, onChannel } from "../lib/socket.ts";
import type { InvoiceRow } from "./invoice_rows.ts";

/** The live event's payload (contract of #21). */
export interface PaymentEvent {
  action: string;
  company?: { id: number; dueDate: string | null };
  invoice?: InvoiceRow;
}

/** What the page learns when the invoice is paid. */
export interface PaymentDone {
  /** The company's new due date (ISO), null when unknown. */
  dueDate: string | null;
  invoice: InvoiceRow | null;
}

/** Options of usePaymentWatch. */
export interface PaymentWatch {
  companyId: number;
  invoiceId: number;
  /** Whether to watch at all (the payment screen is shown). */
  active: boolean;
  onPaid: (done: PaymentDone) => void;
}

/** Calls `onPaid` once when invoice `invoiceId` is paid; see the module doc. */
export function usePaymentWatch(watch: PaymentWatch): void {
  const latest = useRef(watch);
  latest.current = watch;
  const { companyId, invoiceId, active } = watch;
  useEffect(() => {
    if (!active) return;
    let done = false;
    const finish = (result: PaymentDone) => {
      if (done) return;
      done = true;
      latest.current.onPaid(result);
    };
    const check = async () => {
      try {
        const invoice = await get<InvoiceRow>(`/invoices/${invoiceId}`);
        if (done || invoice.status !== "paid") return;
        const me = await get<{ company: { dueDate: string | null } | null }>("/auth/me");
        finish({ dueDate: me.company?.dueDate ?? null, invoice });
      } catch {
        // A failed check waits for the event or the next resync.
      }
    };
    const offEvent = onChannel(channelName(companyId, "payment"), (data) => {
      const event = data as PaymentEvent;
      if (event?.action !== "CONCLUIDA" || event.invoice?.id !== invoiceId) return;
      finish({ dueDate: event.company?.dueDate ?? null, invoice: event.invoice ?? null });
    });
    const offResync = onChannel("resync", () => void check());
    return () => {
      done = true;
      offEvent();
      offResync();
    };
  }, [companyId, invoiceId, active]);
}
