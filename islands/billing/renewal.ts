/**
 * The end of a checkout (spec 001 §4 Checkout, §8): 'Sua licença foi renovada até {date}!'
 * and a return to / after 4 s. A tab that came in with a billing-only token (expired company)
 * first gets a full token from its refresh cookie, so / opens signed in without a login.
 */
import { subscriptionRenewed } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast } from "../lib/toast.ts";
import { formatDueDate } from "../subscription/summary.ts";

/** Spec 001 §4: the return to / after the renewal toast. */
export const RETURN_MS = 4000;

/** Toasts the renewal and goes to / after RETURN_MS. */
export function licenceRenewed(dueDate: string | null, billingOnly: boolean): void {
  showToast("success", t("checkout.renewed", { date: dueDate ? formatDueDate(dueDate) : "" }), "renewed");
  const ready = billingOnly ? subscriptionRenewed() : Promise.resolve(true);
  setTimeout(() => void ready.finally(() => location.assign("/")), RETURN_MS);
}
