/**
 * The subscription gate's one rule for login, refresh and every authenticated request
 * (spec 000 §4, §9): a company may use the product until its due date plus 3 working days.
 * The platform company (the super user's) and super users are never gated.
 */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { getCompany, platformCompanyId } from "../../actors/platform/lookup.ts";
import type { Company } from "../../domain/company.ts";
import { subscriptionActive } from "../../domain/subscription.ts";
import type { User } from "../../domain/user.ts";

/** The user's company (undefined when it was deleted) and whether it may use the product now. */
export async function accessState(
  system: ActorSystem,
  user: Pick<User, "companyId" | "super">,
  now: number,
): Promise<{ company: Company | undefined; active: boolean }> {
  const company = await getCompany(system, user.companyId);
  if (!company) return { company, active: false };
  // Cheapest test first: the platform lookup walks the users, and only a company past its
  // grace needs it.
  const active = user.super || subscriptionActive(company.dueDate, now) ||
    company.id === await platformCompanyId(system);
  return { company, active };
}
