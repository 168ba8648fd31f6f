/**
 * A real installation's first run (issue #38): the platform owner comes from the operator's
 * BALCAO_OWNER_EMAIL and BALCAO_OWNER_PASSWORD, not from the demo's well-known logins. At a
 * start that finds no platform owner (no super user) and has both set, the platform company
 * and its owner (admin, super) are created; once one exists the variables change nothing, so
 * leaving them set never resets anyone's password. Without them, a store with no owner says
 * so at start (server/main.ts) and nobody can sign in until the operator sets them.
 */
import { PLATFORM, users } from "../../actors/platform/collections.ts";
import { createCompany, createUser } from "../../actors/platform/commands.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { AppDeps } from "../deps.ts";

/** What a start found: an owner already there, one it created, or none (and none configured). */
export type OwnerOutcome =
  | { kind: "exists" }
  | { kind: "created"; email: string; id: number }
  | { kind: "missing" };

/** The name the platform company gets; the owner renames it under Empresas. */
export const PLATFORM_COMPANY_NAME = "Balcão";

/** Creates the configured owner when the platform has none; see the module doc. */
export async function ensureOwner(deps: AppDeps): Promise<OwnerOutcome> {
  const { system, config } = deps;
  const all = await users.in(system, PLATFORM).records();
  if ([...all.values()].some((u) => u.super)) return { kind: "exists" };
  if (!config.owner) return { kind: "missing" };
  const { email, password } = config.owner;
  const company = await createCompany(system, { name: PLATFORM_COMPANY_NAME, email, planId: null, dueDate: null });
  const owner = await createUser(system, {
    companyId: company.id,
    name: "Dono da Plataforma",
    email,
    passwordHash: await hashPassword(password, config.passwordHash),
    profile: "admin",
    super: true,
  });
  return { kind: "created", email: owner.email, id: owner.id };
}
