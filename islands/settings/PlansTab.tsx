/** The Planos tab of /settings (spec 001 §2.4, §2.8; super only): the plans form and table. */
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { PlansAdmin, type PlanRow } from "../plans/PlansAdmin.tsx";

/** The plans tab; its first data is GET /plans/all (islands/settings/tabs.ts). */
export function PlansTab({ initial }: SettingsTabProps) {
  return <PlansAdmin initial={(initial?.["/plans/all"] as PlanRow[] | undefined) ?? null} />;
}
