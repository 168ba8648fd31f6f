/**
 * The settings page (spec 001 §2.4): the tabs the viewer may see (islands/settings/tabs.ts),
 * the active one in the URL (`?tab=`, so a reload or a link opens it), each tab's component
 * with its first data (read on the server for the tab the page opened on).
 */
import { type ComponentType, useEffect, useRef, useState } from "react";
import { Tabs } from "radix-ui";
import { t } from "./lib/i18n.ts";
import type { SessionUser } from "./lib/session.ts";
import { type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { Skeleton } from "./ui/States.tsx";
import { activeTab, SETTINGS_TABS, type SettingsTabId, type TabContext } from "./settings/tabs.ts";
import { TAB_COMPONENTS } from "./settings/components.ts";

/** What the route read on the server. */
export interface SettingsInitial {
  tab: SettingsTabId;
  context: TabContext;
  /** The active tab's first data by API path. */
  data: Record<string, unknown>;
}

/** Props of the SettingsPage island. */
export type SettingsPageProps = AdminPageProps<SettingsInitial>;

/** What every tab component receives. */
export interface SettingsTabProps {
  viewer: SessionUser;
  /** The tab's first data by API path (its `paths`), or null: fetch them. */
  initial: Record<string, unknown> | null;
  context: TabContext;
}

/** A tab's component. */
export type SettingsTabComponent = ComponentType<SettingsTabProps>;

/** The settings page. */
export default function SettingsPage({ initial, viewer: serverViewer }: SettingsPageProps) {
  const viewer = useViewer(serverViewer);
  const context = initial?.context ?? { crmWebhook: false };
  const [tab, setTab] = useState<SettingsTabId | null>(initial?.tab ?? null);
  const strip = useRef<HTMLDivElement>(null);
  // On a phone the strip scrolls sideways: keep the active tab in view (a link may open a late one).
  useEffect(() => {
    strip.current?.querySelector<HTMLElement>('[data-state="active"]')?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [tab, viewer?.id]);
  if (!viewer) return <Skeleton rows={6} />;
  const current = tab ?? activeTab(viewer, null, context).id;
  const visible = SETTINGS_TABS.filter((x) => x.visible(viewer, context));

  function choose(id: string) {
    setTab(id as SettingsTabId);
    const url = new URL(location.href);
    url.searchParams.set("tab", id);
    history.replaceState(null, "", url);
  }

  return (
    <section className="admin-page settings-page" aria-labelledby="settings-title">
      <header className="admin-header">
        <h1 id="settings-title" className="admin-title">{t("settings.title")}</h1>
      </header>
      <Tabs.Root className="settings-tabs" value={current} onValueChange={choose}>
        <Tabs.List ref={strip} className="tabs-list settings-tab-list" aria-label={t("settings.title")}>
          {visible.map((x) => <Tabs.Trigger key={x.id} value={x.id} className="tab">{t(x.label)}</Tabs.Trigger>)}
        </Tabs.List>
        {visible.map((x) => {
          const Tab = TAB_COMPONENTS[x.id];
          return (
            <Tabs.Content key={x.id} value={x.id} className="settings-tab-body">
              {current === x.id && (
                <Tab viewer={viewer} context={context} initial={initial?.tab === x.id ? initial.data : null} />
              )}
            </Tabs.Content>
          );
        })}
      </Tabs.Root>
    </section>
  );
}
