/**
 * Who is on /financeiro. Normally the signed-in user (the server rendered for them). An
 * expired company lands here with no stored token (spec 000 §4) and a billing-only token for
 * this tab: then the page reads the user from GET /auth/me (a billing call) to learn its
 * company and plan, and shows the login's 'expired on {date}' message.
 */
import { useEffect, useState } from "react";
import { get } from "../lib/api.ts";
import { type SessionUser, useSession } from "../lib/session.ts";
import { useViewer } from "../ui/AdminPage.tsx";
import type { CheckoutPlanInfo } from "./PlanCard.tsx";

/** The page's viewer and whether it holds only the billing token. */
export interface BillingViewer {
  viewer: SessionUser | null;
  /** Set on an expired company's landing: the due date the login reported (ISO or null). */
  expired: { dueDate: string | null } | null;
}

/** The viewer of a billing page; see the module doc. */
export function useBillingViewer(serverViewer: SessionUser | null): BillingViewer {
  const session = useSession();
  const signedIn = useViewer(serverViewer);
  const expired = session.status === "expired" ? { dueDate: session.dueDate ?? null } : null;
  const [billingUser, setBillingUser] = useState<SessionUser | null>(null);
  useEffect(() => {
    if (expired && !billingUser) get<SessionUser>("/auth/me").then(setBillingUser, () => {});
  }, [expired !== null]);
  return { viewer: expired ? billingUser : signedIn, expired };
}

/** The company's plan as the checkout's plan card shows it, or null when it has none. */
export function viewerPlan(viewer: SessionUser | null): CheckoutPlanInfo | null {
  // The session's plan is the whole Plan record (server/auth/session_user.ts), typed by its flags.
  const plan = viewer?.company?.plan as Partial<CheckoutPlanInfo> | null | undefined;
  if (!plan || typeof plan.value !== "number") return null;
  return { name: String(plan.name ?? ""), value: plan.value, users: Number(plan.users ?? 0), connections: Number(plan.connections ?? 0) };
}
