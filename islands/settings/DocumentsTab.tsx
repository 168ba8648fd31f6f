/** The Documentos tab of /settings (spec 001 §2.11, super): the terms and privacy PDFs the sign-up page links. */
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { UploadForm } from "../branding/UploadForm.tsx";

/** The documents tab. */
export function DocumentsTab({ initial }: SettingsTabProps) {
  return <UploadForm kind="doc" initial={initial} intro="branding.docsIntro" />;
}
