/**
 * `recordAudit`: the one call the API handlers make after an audited action succeeded
 * (domain/audit.ts says which). It names who acted and appends to the company's log through
 * its actor. The action already happened, so a failing append is logged, never thrown: the
 * caller's answer stays true.
 */
import type { AuditAction, AuditTarget } from "../../domain/audit.ts";
import type { Principal } from "../../domain/permissions.ts";
import { appendAudit } from "../../actors/audit/mod.ts";
import { getUser } from "../../actors/platform/lookup.ts";
import type { AppDeps } from "../deps.ts";
import { log } from "../../actors/_runtime/log.ts";

/** Extra facts of an entry: the company whose log gets it (default: the actor's), the address. */
export interface AuditOptions {
  companyId?: number;
  address?: string;
}

/** Appends `action` on `target` by `who` (null: nobody signed in, a login) to a company's log. */
export async function recordAudit(
  deps: AppDeps,
  who: Principal | null,
  action: AuditAction,
  target: AuditTarget,
  detail: Record<string, unknown> = {},
  options: AuditOptions = {},
): Promise<void> {
  const companyId = options.companyId ?? who?.companyId;
  if (companyId === undefined) return;
  try {
    const actor = who ? await getUser(deps.system, who.id) : undefined;
    await appendAudit(deps.system, {
      companyId,
      action,
      userId: who?.id ?? null,
      userName: actor?.name ?? null,
      bySuper: who?.super ?? false,
      target,
      detail,
      ...(options.address ? { address: options.address } : {}),
    });
  } catch (error) {
    log.error(`Audit entry ${action} of company ${companyId} was not recorded`, { error });
  }
}
