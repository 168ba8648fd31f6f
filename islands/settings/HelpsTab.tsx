/** The Ajuda tab of /settings (spec 001 §2.4, §2.9; super only): the help entries' form and table. */
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { HelpsAdmin } from "../help_admin/HelpsAdmin.tsx";
import type { HelpRow } from "../helps/use_helps.ts";

/** The helps tab; its first data is GET /helps/list (islands/settings/tabs.ts). */
export function HelpsTab({ initial, viewer }: SettingsTabProps) {
  return <HelpsAdmin initial={(initial?.["/helps/list"] as HelpRow[] | undefined) ?? null} viewer={viewer} />;
}
