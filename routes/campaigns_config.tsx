/** /campaigns-config: the campaign settings of spec 002 §2.5, read on the server. */
import CampaignsConfigPage, { type CampaignsConfigPageProps, type SettingsRows } from "../islands/CampaignsConfigPage.tsx";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

export const css = "campaigns";

/** The settings as GET /campaign-settings answers them (key and JSON value). */
export function load(l: PageLoad) {
  return l.api<SettingsRows>("/campaign-settings");
}

/** The settings page. */
export default function CampaignsConfigRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<CampaignsConfigPageProps>
        ctx={ctx}
        name="CampaignsConfigPage"
        component={CampaignsConfigPage}
        props={{ initial: (data as SettingsRows | null | undefined) ?? null, viewer: ctx.viewer }}
      />
    </AdminRoute>
  );
}
