/**
 * The user of a session as login, refresh and `/auth/me` return it and the server-rendered
 * pages read it (spec 000 §7: company, settings, queues).
 */
import { publicUser } from "../../actors/platform/collections.ts";
import { companyPlan, getCompany, visibleSettings } from "../../actors/platform/lookup.ts";
import { queues } from "../../actors/queues/collection.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import type { User } from "../../domain/user.ts";
import { isoDate } from "../../domain/iso_date.ts";

/** The user with company (name, dueDate, settings, plan) and queues expanded. */
export async function sessionUser(system: ActorSystem, user: User) {
  const [company, settings, plan, queueMap] = await Promise.all([
    getCompany(system, user.companyId),
    // Global keys from the platform, credentials only for those allowed (as GET /settings).
    visibleSettings(system, user.companyId, user),
    companyPlan(system, user.companyId),
    queues.in(system, user.companyId).records(),
  ]);
  return {
    ...publicUser(user),
    createdAt: isoDate(user.createdAt),
    updatedAt: isoDate(user.updatedAt),
    company: company && {
      id: company.id,
      name: company.name,
      dueDate: isoDate(company.dueDate),
      status: company.status,
      planId: company.planId,
      plan: plan ?? null,
      settings: Object.entries(settings).map(([key, value]) => ({ key, value })),
    },
    queues: user.queueIds.flatMap((id) => {
      const q = queueMap.get(id);
      return q ? [{ id: q.id, name: q.name, color: q.color }] : [];
    }),
  };
}
