/**
 * /settings: the tabs of spec 001 §2.4. The active tab (`?tab=`) reads its first data on the
 * server (islands/settings/tabs.ts names the API paths); other tabs fetch theirs when opened.
 */
import SettingsPage, { type SettingsPageProps } from "../islands/SettingsPage.tsx";
import { activeTab } from "../islands/settings/tabs.ts";
import { crmWebhookIn } from "../islands/settings/crm.ts";
import { Island, type PageProps } from "../server/pages/island.tsx";
import type { PageLoad } from "../server/pages/loader.ts";
import { AdminRoute } from "../server/pages/admin_route.tsx";

/** The page's own stylesheet (static/pages/settings.css). */
export const css = ["settings", "settings_options", "settings_companies", "settings_plans", "settings_branding"];

/** The active tab, its first data by API path, and what decides the tabs shown. */
export async function load(l: PageLoad): Promise<SettingsPageProps["initial"]> {
  const connections = await l.api<{ webhook?: string | null }[]>("/whatsapp?session=0");
  const context = { crmWebhook: crmWebhookIn(connections ?? []) };
  const tab = activeTab(l.viewer, l.query.get("tab") ?? l.params.tab ?? null, context);
  const data: Record<string, unknown> = {};
  for (const path of tab.paths) data[path] = await l.api(path);
  return { tab: tab.id, context, data };
}

/** The settings page. */
export default function SettingsRoute({ ctx, data }: PageProps) {
  return (
    <AdminRoute ctx={ctx}>
      <Island<SettingsPageProps> ctx={ctx} name="SettingsPage" component={SettingsPage} props={{ initial: data ?? null, viewer: ctx.viewer }} />
    </AdminRoute>
  );
}
