/** /campaigns: the campaigns list of spec 002 §2.2 (plan useCampaigns, admin/supervisor), its first page read on the server. */
import CampaignsPage, { type CampaignsPageProps } from "../islands/CampaignsPage.tsx";
import type { CampaignsResponse } from "../islands/campaigns/types.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The message tabs borrow the queue dialog's tab styles; the rest is the page's own. */
export const css = ["queues", "campaigns"];

/** The first page of campaigns as GET /campaigns/ answers it. */
export function load(l: PageLoad) {
  return l.api<CampaignsResponse>("/campaigns/?pageNumber=1");
}

/** The campaigns page. */
export default function CampaignsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<CampaignsPageProps>
        ctx={ctx}
        name="CampaignsPage"
        component={CampaignsPage}
        props={{ initial: (data as CampaignsResponse | null | undefined) ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
