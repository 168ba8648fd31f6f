/**
 * The browser-side `cshow` flag of spec 002 §2.1: the campaign routes (/campaigns,
 * /campaign/:id/report, /campaigns-config, /contact-lists…) are shown only while it exists in
 * local storage, on top of the plan (useCampaigns) and profile gates. Its source, as in the
 * product the spec was read from, is the company's `campaignsEnabled` setting (the platform
 * owner's "Campanhas" switch on a company, 001 §3).
 *
 * Departure, on purpose: that product wrote the flag once at login and never removed it. Here
 * every session load writes or removes it from the company's current setting. So the owner's
 * switch reaches a user at their next page without a new login, and a flag left in a shared
 * browser by an earlier user (of another company, maybe) never shows campaigns to the next
 * one. The server gates the same pages and the campaign APIs on the setting itself (it cannot
 * read local storage): server/pages/mod.ts and server/auth/plan_gate.ts.
 */
import { campaignsOn } from "../../domain/settings.ts";
import type { SessionUser } from "./session.ts";
import { hasLocal, writeLocal } from "./storage.ts";

/** The local-storage key of the flag (the spec's name). */
export const CSHOW_KEY = "cshow";

/** Whether `user`'s company has campaigns on (the flag's source). */
export function campaignsEnabledFor(user: SessionUser): boolean {
  return campaignsOn(user.company?.settings.find((s) => s.key === "campaignsEnabled")?.value);
}

/** Writes or removes the flag for the session's user (see the module doc for why at every load). */
export function syncCampaignFlag(user: SessionUser): void {
  writeLocal(CSHOW_KEY, campaignsEnabledFor(user) ? "true" : null);
}

/** Whether this browser holds the flag. */
export function campaignFlag(): boolean {
  return hasLocal(CSHOW_KEY);
}
