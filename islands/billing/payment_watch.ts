/**
 * Waiting for an invoice's payment on the checkout's payment screen (spec 001 §4 Checkout):
 * the live `company-{id}-payment` event with action CONCLUIDA carries the company's new due
 * date. The hub refuses billing-only tokens (server/realtime/auth.ts: an expired company has
 * no socket), so on an expired company's /financeiro the screen asks GET /invoices/{id} every
 * few seconds instead, and reads the new due date from GET /auth/me once it is paid. A
 * `resync` (the socket missed events) triggers the same one-off check.
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

/** How often an expired company's page asks whether the invoice was paid. */
export const POLL_MS = 3000;

/** Options of usePaymentWatch. */
export interface PaymentWatch {
  companyId: number;
  invoiceId: number;
  /** Whether the page holds a billing-only token (no socket: poll). */
  billingOnly: boolean;
  /** Whether to watch at all (the payment screen is shown). */
  active: boolean;
  onPaid: (done: PaymentDone) => void;
}

/** Calls `onPaid` once when invoice `invoiceId` is paid; see the module doc. */
export function usePaymentWatch(watch: PaymentWatch): void {
  const latest = useRef(watch);
  latest.current = watch;
  const { companyId, invoiceId, billingOnly, active } = watch;
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
        // A failed check is retried by the next tick or event.
      }
    };
    const offEvent = onChannel(channelName(companyId, "payment"), (data) => {
      const event = data as PaymentEvent;
      if (event?.action !== "CONCLUIDA" || event.invoice?.id !== invoiceId) return;
      finish({ dueDate: event.company?.dueDate ?? null, invoice: event.invoice ?? null });
    });
    const offResync = onChannel("resync", () => void check());
    const poll = billingOnly ? setInterval(check, POLL_MS) : undefined;
    return () => {
      done = true;
      offEvent();
      offResync();
      clearInterval(poll);
    };
  }, [companyId, invoiceId, billingOnly, active]);
}
