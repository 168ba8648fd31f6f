/** /campaign/:campaignId/report: the campaign report of spec 002 §2.4, read on the server. */
import CampaignReportPage, { type CampaignReport, type CampaignReportPageProps } from "../islands/CampaignReportPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

export const css = "campaigns";

/** The campaign's id from the address, or 0 when it is not a number (the island then shows its error). */
function campaignId(params: Record<string, string>): number {
  const id = Number(params.campaignId);
  return Number.isInteger(id) && id > 0 ? id : 0;
}

/** The report as GET /campaigns/{id}/report answers it. */
export function load(l: PageLoad) {
  const id = campaignId(l.params);
  return id ? l.api<CampaignReport>(`/campaigns/${id}/report`) : Promise.resolve(null);
}

/** The report page. */
export default function CampaignReportRoute({ ctx, params, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<CampaignReportPageProps>
        ctx={ctx}
        name="CampaignReportPage"
        component={CampaignReportPage}
        props={{ initial: (data as CampaignReport | null | undefined) ?? null, viewer: ctx.viewer, campaignId: campaignId(params) }}
      />
    </AdminRoute>
  );
}
