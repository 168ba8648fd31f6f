/**
 * The signed-in user as `GET /auth/me` returns it (company with plan, settings and due date;
 * queues), shared by every island of the page through one atom of the page's store
 * (page_store.ts): read with `useSession`, written by `loadSession` and `updateSessionUser`.
 * No token means no session: private pages go to /login.
 */
import { atom } from "jotai";
import { can, isManager, type Permission } from "../../domain/permissions.ts";
import { planAllows, type PlanFlag } from "../../domain/plan.ts";
import { settingOn } from "../../domain/settings.ts";
import type { Profile } from "../../domain/user.ts";
import { clearSession, get, storedToken } from "./api.ts";
import { syncCampaignFlag } from "./campaign_flag.ts";
import { pageStore, useHydratedAtomValue } from "./page_store.ts";

/** The user of the session (the shape of server/auth/session_user.ts sessionUser). */
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  companyId: number;
  whatsappId: number | null;
  queues: { id: number; name: string; color: string }[];
  company: {
    id: number;
    name: string;
    dueDate: string | null;
    plan: Partial<Record<PlanFlag, boolean | null>> | null;
    settings: { key: string; value: string }[];
  } | null;
}

/** Where the session is: loading, signed in, or failed (with a retry). */
export type SessionState =
  | { status: "loading" }
  | { status: "ready"; user: SessionUser }
  | { status: "error"; error: unknown }
  /** Spec 000 §4: sent to /financeiro with no stored token after a 402 at login or on a call. */
  | { status: "expired"; message?: string; dueDate?: string | null };

const LOADING: SessionState = { status: "loading" };

/** The page's session; loaded when an island first reads it. */
const sessionAtom = atom<SessionState>(LOADING);
sessionAtom.onMount = () => loadSession();

/** Whether this page has asked for its session yet. */
const startedAtom = atom(false);

function set(next: SessionState) {
  pageStore().set(sessionAtom, next);
}

/** Loads the session once per page (again when `force`). */
export function loadSession(force = false): void {
  if (pageStore().get(startedAtom) && !force) return;
  pageStore().set(startedAtom, true);
  if (!storedToken()) {
    const expired = sessionStorage.getItem("subscriptionExpired");
    if (expired && location.pathname === "/financeiro") return set({ status: "expired", ...JSON.parse(expired) });
    clearSession();
    return;
  }
  set(LOADING);
  get<SessionUser>("/auth/me").then(
    (user) => {
      // Before any island draws the menu or gates the page with it (lib/campaign_flag.ts).
      syncCampaignFlag(user);
      set({ status: "ready", user });
    },
    (error) => set({ status: "error", error }),
  );
}

/** Replaces the session user (after a profile save). */
export function updateSessionUser(user: SessionUser): void {
  syncCampaignFlag(user);
  set({ status: "ready", user });
}

/** React hook: the session state; starts loading on first use in the browser ("loading" on the server). */
export function useSession(): SessionState {
  return useHydratedAtomValue(sessionAtom, LOADING);
}

/** A company setting's value ('' when absent). */
export function setting(user: SessionUser, key: string): string {
  return user.company?.settings.find((s) => s.key === key)?.value ?? "";
}

/** Whether a company setting is on. */
export function settingEnabled(user: SessionUser, key: string): boolean {
  return settingOn(setting(user, key));
}

/** Whether the user holds a permission of domain/permissions.ts. */
export function allowed(user: SessionUser, permission: Permission): boolean {
  return can(user, permission);
}

/** Whether the company's plan grants a feature flag. */
export function planHas(user: SessionUser, flag: PlanFlag): boolean {
  const plan = user.company?.plan;
  return planAllows(plan ? { ...EMPTY_PLAN, ...plan } : undefined, flag);
}

const EMPTY_PLAN = Object.fromEntries(
  ["useWhatsapp", "useFacebook", "useInstagram", "useCampaigns", "useSchedules", "useInternalChat", "useExternalApi", "useKanban", "useInternal", "useAI"]
    .map((k) => [k, null]),
) as Record<PlanFlag, null>;

/** Admin or supervisor. */
export function manager(user: SessionUser): boolean {
  return isManager(user);
}
