/**
 * The demo's paid invoice: a month before its current due date the company was due then, its
 * invoice was issued, and the platform owner marked it paid (a Pix received), which renewed
 * the licence to the due date the demo has now. Done through the companies' and invoices'
 * routes as the platform owner; skipped when the store has no platform owner.
 */
import { getCompany } from "../../../actors/platform/lookup.ts";
import { listInvoices } from "../../../actors/invoices/mod.ts";
import type { AppDeps } from "../../deps.ts";
import type { Replay } from "./replay.ts";
import type { StaffSession } from "./staff.ts";

const DAY = 86_400_000;

/** The same day of the month before (the billing day kept through short months). */
function monthBefore(ms: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}

/** Issues and pays the month before's invoice of company `companyId`, at `at` (replayed). */
export async function playPaidInvoice(deps: AppDeps, replay: Replay, owner: StaffSession | undefined, companyId: number, at: number): Promise<void> {
  const company = await getCompany(deps.system, companyId);
  if (!owner || !company || company.dueDate === null) return;
  await replay.to(at);
  const { id, name, email, planId } = company;
  await owner.call("PUT", `/companies/${id}`, { name, email, planId, dueDate: new Date(monthBefore(company.dueDate)).toISOString() });
  // The month before's invoice (the current period's was issued at start-up).
  const issued = (await listInvoices(deps.system, companyId)).find((i) => i.status === "open" && i.dueDate < company.dueDate! - 15 * DAY);
  if (!issued) return;
  await replay.to(at + 3_600_000);
  await owner.call("POST", `/invoices/${issued.id}/pay`, { reason: "Pix recebido e conferido no extrato" });
}
