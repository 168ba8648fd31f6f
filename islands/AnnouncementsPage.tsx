/**
 * The announcements page (spec 002 §2.7, super users only): a list with search (debounced
 * 500 ms), pages loaded when scrolled within 100 px of the bottom, an add/edit dialog and a
 * delete with confirmation; success toasts for save and delete. The list reloads on every
 * company-announcement event, so other tabs' changes show at once. Others are sent away by
 * the shell's route gate ('Sem permissão para acessar!').
 */
import { type UIEvent, useCallback, useEffect, useRef, useState } from "react";
import { Pencil, Plus, Trash2 } from "lucide-react";
import { ANNOUNCEMENT_CHANNEL } from "../domain/realtime.ts";
import { api, get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed, type SessionUser, useSession } from "./lib/session.ts";
import { onChannel, startSocket } from "./lib/socket.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { EmptyState, ErrorState, Skeleton } from "./ui/States.tsx";
import { ConfirmDialog } from "./tickets/dialogs.tsx";
import { AnnouncementDialog, type AnnouncementRecord, PRIORITY_LABELS } from "./announcements/AnnouncementDialog.tsx";

/** Props of the AnnouncementsPage island (none: everything comes from the API). */
export type AnnouncementsPageProps = Record<string, never>;

interface Page {
  records: AnnouncementRecord[];
  hasMore: boolean;
}

function priorityLabel(priority: number): string {
  return t(PRIORITY_LABELS[priority as keyof typeof PRIORITY_LABELS] ?? PRIORITY_LABELS[3]);
}

function Screen({ user }: { user: SessionUser }) {
  const [search, setSearch] = useState("");
  const [list, setList] = useState<{ records: AnnouncementRecord[]; page: number; hasMore: boolean } | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<{ record: AnnouncementRecord | null } | null>(null);
  const [deleting, setDeleting] = useState<AnnouncementRecord | null>(null);
  const loadingMore = useRef(false);
  const searchRef = useRef(search);
  searchRef.current = search;

  const load = useCallback(async (page: number, searchParam: string) => {
    try {
      const r = await get<Page>(`/announcements/${query({ searchParam, pageNumber: page })}`);
      setFailed(false);
      setList((old) => ({
        records: page === 1 || !old ? r.records : [...old.records, ...r.records.filter((a) => !old.records.some((o) => o.id === a.id))],
        page,
        hasMore: r.hasMore,
      }));
    } catch {
      if (page === 1) setFailed(true);
    }
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => load(1, search), search ? 500 : 0);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    startSocket(user.companyId, user.id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onChannel(ANNOUNCEMENT_CHANNEL, () => {
      clearTimeout(timer);
      timer = setTimeout(() => load(1, searchRef.current), 300);
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, []);
  async function onScroll(event: UIEvent<HTMLDivElement>) {
    const el = event.currentTarget;
    if (!list?.hasMore || loadingMore.current || el.scrollHeight - el.scrollTop - el.clientHeight >= 100) return;
    loadingMore.current = true;
    await load(list.page + 1, search);
    loadingMore.current = false;
  }

  async function remove(record: AnnouncementRecord) {
    try {
      await api("DELETE", `/announcements/${record.id}`);
      showToast("success", t("announcements.deleted"));
      await load(1, search);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  return (
    <section className="announcements-page" aria-labelledby="announcements-title">
      <header className="announcements-header">
        <h1 id="announcements-title">{t("announcements.title")}</h1>
        <input
          className="input"
          type="search"
          placeholder={t("common.search")}
          aria-label={t("common.search")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button type="button" className="btn btn-primary" onClick={() => setEditing({ record: null })}>
          <Plus size={16} aria-hidden="true" /> {t("announcements.new")}
        </button>
      </header>
      <div className="announcements-scroll" onScroll={onScroll}>
        {failed ? <ErrorState onRetry={() => load(1, search)} /> : !list ? <Skeleton rows={5} /> : list.records.length === 0
          ? <EmptyState text={t("announcements.empty")} />
          : (
            <table className="announcements-table">
              <thead>
                <tr>
                  <th>{t("announcements.colTitle")}</th>
                  <th>{t("announcements.colPriority")}</th>
                  <th>{t("announcements.colStatus")}</th>
                  <th>{t("announcements.colMedia")}</th>
                  <th aria-label={t("announcements.colActions")} />
                </tr>
              </thead>
              <tbody>
                {list.records.map((a) => (
                  <tr key={a.id} data-testid="announcement-row">
                    <td><span className={`announcement priority-${a.priority}`}>{a.title}</span></td>
                    <td>{priorityLabel(a.priority)}</td>
                    <td>{t(a.status ? "announcements.active" : "announcements.inactive")}</td>
                    <td>{a.mediaName ?? "—"}</td>
                    <td className="announcements-actions">
                      <button type="button" className="icon-btn" aria-label={t("announcements.edit")} onClick={() => setEditing({ record: a })}>
                        <Pencil size={16} />
                      </button>
                      <button type="button" className="icon-btn" aria-label={t("common.delete")} onClick={() => setDeleting(a)}>
                        <Trash2 size={16} />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
      </div>
      <AnnouncementDialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        record={editing?.record ?? null}
        onSaved={() => load(1, search)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("announcements.deleteTitle")}
        text={t("announcements.deleteConfirm", { title: deleting?.title ?? "" })}
        onConfirm={() => deleting && remove(deleting)}
      />
    </section>
  );
}

/** The announcements page; waits for the session the shell loads and shows nothing to non-super users. */
export default function AnnouncementsPage(_props: AnnouncementsPageProps) {
  const session = useSession();
  if (session.status !== "ready") return <Skeleton rows={5} />;
  if (!allowed(session.user, "super:announcements")) return null;
  return <Screen user={session.user} />;
}
