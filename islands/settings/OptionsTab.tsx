/** The options tab of /settings (spec 001 §2.4); not built yet. TODO(#16) */
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { t } from "../lib/i18n.ts";

/** The options tab. */
export function OptionsTab(_props: SettingsTabProps) {
  return <p className="muted">{t("construction.title")}</p>;
}
