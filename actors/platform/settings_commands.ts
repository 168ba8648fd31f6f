/** Writes of per-company settings: one record per key, created on first write. */
import type { ActorSystem } from "../_runtime/system.ts";
import type { Setting } from "../../domain/settings.ts";
import { settings } from "./collections.ts";

/** Sets `key` to `value` in company `companyId`; publishes `company-{id}-settings`. */
export function setSetting(
  system: ActorSystem,
  companyId: number,
  key: string,
  value: string,
): Promise<Setting> {
  return settings.in(system, companyId).transact((view) => {
    let old: Setting | undefined;
    for (const s of view.records.values()) if (s.key === key) old = s;
    const next: Setting = old
      ? { ...old, value, updatedAt: view.now }
      : { id: view.nextId(), companyId, key, value, createdAt: view.now, updatedAt: view.now };
    return { put: [next], reply: next };
  });
}

/** Deletes every stored setting of a company (when the company is deleted). */
export function removeCompanySettings(system: ActorSystem, companyId: number): Promise<number> {
  return settings.in(system, companyId).transact((view) => ({
    remove: [...view.records.keys()],
    reply: view.records.size,
  }));
}
