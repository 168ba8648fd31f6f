/** The Logotipos/Ícones tab of /settings (spec 001 §2.11, super): PNG logos and icons to their six destinations. */
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { UploadForm } from "../branding/UploadForm.tsx";

/** The logos tab. */
export function LogosTab({ initial }: SettingsTabProps) {
  return <UploadForm kind="logo" initial={initial} intro="branding.logosIntro" />;
}
