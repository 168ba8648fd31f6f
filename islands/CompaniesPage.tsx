/**
 * /companies (issue #16: "`/companies` and `/helps` routes render the same super screens"):
 * the Empresas tab of /settings as a page of its own, with the same first data read on the
 * server.
 */
import { type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { Skeleton } from "./ui/States.tsx";
import { CompaniesTab } from "./settings/CompaniesTab.tsx";

/** Props of the CompaniesPage island: the first data by API path (see COMPANIES_PATHS). */
export type CompaniesPageProps = AdminPageProps<Record<string, unknown>>;

/** The companies page. */
export default function CompaniesPage({ initial, viewer: serverViewer }: CompaniesPageProps) {
  const viewer = useViewer(serverViewer);
  return viewer ? <CompaniesTab viewer={viewer} initial={initial} context={{ crmWebhook: false }} /> : <Skeleton rows={6} />;
}
