/**
 * Stored password resets (domain/password_reset.ts): one per user, keyed by the user id,
 * holding only the token's SHA-256 and its expiry. A new request replaces the user's old
 * token; a use removes it in the same step that checks it, so two requests racing with one
 * token cannot both succeed. Expired records are swept whenever a reset is issued (no timer).
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { PasswordReset, RESET_TOKEN_TTL_MS, resetAccepts } from "../../domain/password_reset.ts";
import { defineCollection } from "../collection/mod.ts";
import { PLATFORM } from "./collections.ts";

/** The resets of the platform (scope 0), one record per user id. */
export const passwordResets = defineCollection<PasswordReset>({
  name: "passwordReset",
  parse: (raw) => PasswordReset.parse(raw),
});

/** The hex SHA-256 of a (normalized) token: the only form of it the server keeps. */
export async function hashResetToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Stores a new token hash for `userId` (replacing any older one); replies with the record. */
export function issueReset(system: ActorSystem, userId: number, tokenHash: string): Promise<PasswordReset> {
  return passwordResets.in(system, PLATFORM).transact((view) => {
    const expired = [...view.records.values()].filter((r) => r.expiresAt <= view.now && r.id !== userId);
    const reset = { id: userId, tokenHash, createdAt: view.now, expiresAt: view.now + RESET_TOKEN_TTL_MS };
    return { put: [reset], remove: expired.map((r) => r.id), reply: reset };
  });
}

/** Whether `userId` has a live reset with this token hash (the token stays usable). */
export async function resetValid(system: ActorSystem, userId: number, tokenHash: string): Promise<boolean> {
  return resetAccepts(await passwordResets.in(system, PLATFORM).get(userId), tokenHash, system.now());
}

/**
 * Uses the token up: true (and the record removed) when it is the user's live token, else
 * false; an expired record is removed either way.
 */
export function consumeReset(system: ActorSystem, userId: number, tokenHash: string): Promise<boolean> {
  return passwordResets.in(system, PLATFORM).transact((view) => {
    const reset = view.records.get(userId);
    if (resetAccepts(reset, tokenHash, view.now)) return { remove: [userId], reply: true };
    return { remove: reset && reset.expiresAt <= view.now ? [userId] : [], reply: false };
  });
}
