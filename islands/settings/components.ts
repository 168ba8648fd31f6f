/** Each /settings tab's component, by tab id (islands/settings/tabs.ts). */
import type { SettingsTabComponent } from "../SettingsPage.tsx";
import type { SettingsTabId } from "./tabs.ts";
import { OptionsTab } from "./OptionsTab.tsx";
import { HoursTab } from "./HoursTab.tsx";
import { KeywordsTab } from "./KeywordsTab.tsx";
import { CompaniesTab } from "./CompaniesTab.tsx";
import { NewCompanyTab } from "./NewCompanyTab.tsx";
import { PlansTab } from "./PlansTab.tsx";
import { HelpsTab } from "./HelpsTab.tsx";
import { ColorsTab } from "./ColorsTab.tsx";
import { LogosTab } from "./LogosTab.tsx";
import { DocumentsTab } from "./DocumentsTab.tsx";
import { CertificateTab } from "./CertificateTab.tsx";

/** The component of every tab. */
export const TAB_COMPONENTS: Record<SettingsTabId, SettingsTabComponent> = {
  options: OptionsTab,
  hours: HoursTab,
  keywords: KeywordsTab,
  companies: CompaniesTab,
  newCompany: NewCompanyTab,
  plans: PlansTab,
  helps: HelpsTab,
  colors: ColorsTab,
  logos: LogosTab,
  documents: DocumentsTab,
  certificate: CertificateTab,
};
