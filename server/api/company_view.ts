/** Companies as the companies endpoints return them: dates as ISO text, plan expanded. */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { PLATFORM, plans } from "../../actors/platform/collections.ts";
import { visibleSettings } from "../../actors/platform/lookup.ts";
import type { SettingReader } from "../../domain/settings.ts";
import type { Company } from "../../domain/company.ts";
import { isoDate } from "../../domain/iso_date.ts";

/** Builds a view function with the plans read once (for lists). */
export async function companyViewer(system: ActorSystem) {
  const planMap = await plans.in(system, PLATFORM).records();
  return (company: Company) => ({
    ...company,
    dueDate: isoDate(company.dueDate),
    createdAt: isoDate(company.createdAt),
    updatedAt: isoDate(company.updatedAt),
    plan: (company.planId !== null && planMap.get(company.planId)) || null,
  });
}

/** One company with its plan and its settings as `who` may read them (spec 001 §3). */
export async function companyDetail(system: ActorSystem, company: Company, who: SettingReader) {
  const [view, settings] = await Promise.all([
    companyViewer(system),
    visibleSettings(system, company.id, who),
  ]);
  return {
    ...view(company),
    settings: Object.entries(settings).map(([key, value]) => ({ key, value })),
  };
}
