/**
 * The Pix certificate tab of /settings (spec 001 §2.4, §2.11, super): Efí's .p12, stored
 * privately on the server for the billing side (server/media/branding_files.ts).
 */
import type { SettingsTabProps } from "../SettingsPage.tsx";
import { UploadForm } from "../branding/UploadForm.tsx";

/** The certificate tab. */
export function CertificateTab({ initial }: SettingsTabProps) {
  return <UploadForm kind="cert" initial={initial} intro="branding.certIntro" />;
}
