/**
 * The Help screen for everyone (spec 001 §2.9): the help entries (title, description,
 * embedded video), a filter over their texts, and a WhatsApp support button. The spec does
 * not show where the support number comes from; it is the platform setting `wasupport`
 * (domain/settings.ts), which the session already carries, opened as wa.me in a new tab and
 * hidden when no number is set. A super user also gets the entries' admin (form and table,
 * the same one as the Ajuda tab of /settings) above the list, as issue #16 asks: /helps
 * renders the platform owner's screen too.
 */
import { useMemo, useState } from "react";
import { MessageCircle } from "lucide-react";
import { supportLink, SUPPORT_PHONE_KEY } from "../domain/help.ts";
import { matchesSearch } from "../domain/paging.ts";
import { t } from "./lib/i18n.ts";
import { setting } from "./lib/session.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { EmptyState, ErrorState, Skeleton } from "./ui/States.tsx";
import { HelpCard } from "./helps/HelpCard.tsx";
import { FirstSteps } from "./helps/FirstSteps.tsx";
import { HelpsAdmin } from "./help_admin/HelpsAdmin.tsx";
import { type HelpRow, useHelps } from "./helps/use_helps.ts";

/** Props of the HelpsPage island: GET /helps/list as read on the server. */
export type HelpsPageProps = AdminPageProps<HelpRow[]>;

/** The Help screen. */
export default function HelpsPage({ initial, viewer: serverViewer }: HelpsPageProps) {
  const viewer = useViewer(serverViewer);
  const list = useHelps(initial, viewer);
  const [search, setSearch] = useState("");
  const support = viewer ? supportLink(setting(viewer, SUPPORT_PHONE_KEY)) : null;
  const shown = useMemo(
    () => list.rows.filter((h) => matchesSearch(search, h.title, h.description)),
    [list.rows, search],
  );

  return (
    <AdminPage
      title={t("helps.title")}
      search={{ value: search, onChange: setSearch }}
      actions={support && (
        <a className="btn btn-success help-support" href={support} target="_blank" rel="noopener noreferrer" aria-label={t("helps.supportLabel")} data-testid="help-support">
          <MessageCircle size={16} aria-hidden="true" /> {t("helps.support")}
        </a>
      )}
      testId="helps-page"
    >
      {viewer?.super && (
        <section className="help-admin" data-testid="help-admin" aria-label={t("settingsHelps.admin")}>
          <HelpsAdmin initial={initial} viewer={viewer} />
        </section>
      )}
      <FirstSteps />
      {list.status === "error" && list.rows.length === 0
        ? <ErrorState text={t("table.loadError")} onRetry={list.reload} />
        : list.status === "loading" && list.rows.length === 0
        ? <Skeleton rows={3} />
        : shown.length === 0
        ? <EmptyState text={t(list.rows.length ? "helps.noMatch" : "helps.empty")} />
        : <div className="help-grid" data-testid="help-list">{shown.map((h) => <HelpCard key={h.id} help={h} />)}</div>}
    </AdminPage>
  );
}
