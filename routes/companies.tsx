/** /companies: the platform owner's companies screen (spec 001 §2.6), first data read on the server. */
import CompaniesPage, { type CompaniesPageProps } from "../islands/CompaniesPage.tsx";
import { COMPANIES_PATHS } from "../islands/companies/company_row.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's stylesheets: the settings tab's rules serve the page too. */
export const css = "settings_companies";

/** The first page of companies and the plans, by API path (as the settings tab receives them). */
export async function load(l: PageLoad): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  for (const path of Object.values(COMPANIES_PATHS)) data[path] = await l.api(path);
  return data;
}

/** The companies page. */
export default function CompaniesRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<CompaniesPageProps> ctx={ctx} name="CompaniesPage" component={CompaniesPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
