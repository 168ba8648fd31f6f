/**
 * The list pane (spec 000 §2): tabs Conversas, Grupos, Resolvidas, Busca with their
 * visibility rules; sub-tabs assigned and pending with counts capped at 999; search with tag
 * and user filters; show-all (managers, not in groups) and the connection filter (admin), each
 * filter of several values; the list order (newest or oldest first, kept in this browser);
 * the new-ticket button; a row's spy icon opens the ticket messages dialog; a selection mode
 * with bulk actions (BulkBar.tsx). The last-interaction labels re-render every 60 s.
 */
import { useEffect, useState } from "react";
import { Tabs } from "radix-ui";
import { CheckCheck, ListChecks, MessagesSquare, Plus, Search, UsersRound } from "lucide-react";
import { badgeCount } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { allowed, manager, type SessionUser, setting, settingEnabled } from "../lib/session.ts";
import { canPreviewPending } from "../../domain/visibility.ts";
import { acceptTicket, closePending, markUnread } from "./actions.ts";
import { ClosePendingDialog } from "./dialogs.tsx";
import { showToast } from "../lib/toast.ts";
import { BulkBar, type BulkKind } from "./BulkBar.tsx";
import { NewGroupDialog } from "./NewGroupDialog.tsx";
import { NewTicketDialog } from "./NewTicketDialog.tsx";
import { TicketListView } from "./TicketListView.tsx";
import { TicketMessagesDialog } from "./TicketMessagesDialog.tsx";
import type { ListFilters, ListTab, TicketItem } from "./types.ts";
import { MultiSelect } from "../ui/MultiSelect.tsx";
import { useOptions } from "../ui/use_options.ts";
import { readSortOrder, SortToggle, type SortOrder, writeSortOrder } from "./SortToggle.tsx";
import { type ListSpec, useTicketList } from "./use_ticket_list.ts";
import { useSelection } from "./use_selection.ts";

/** Props of TicketsManager. */
export interface TicketsManagerProps {
  user: SessionUser;
  selectedId: number | null;
  onOpen: (ticket: TicketItem, spy?: boolean) => void;
}

/**
 * A filter of several values (spec 000 §7: `tags`, `users`, `whatsappIds` take lists): a
 * ticket must carry every chosen tag, and may belong to any chosen user or connection.
 */
function ListFilter({ label, emptyText, options, value, onChange, testId }: { label: string; emptyText: string; options: { id: number; name: string }[]; value: number[]; onChange: (v: number[]) => void; testId: string }) {
  return (
    <div className="filter">
      <MultiSelect
        label={label}
        emptyText={emptyText}
        options={options.map((o) => ({ value: o.id, label: o.name }))}
        value={value}
        onChange={onChange}
        testId={testId}
        hideLabel
      />
    </div>
  );
}

/** The tabs, filters and lists of the tickets screen. */
export function TicketsManager({ user, selectedId, onOpen }: TicketsManagerProps) {
  const isManager = manager(user);
  const showGroups = isManager || settingEnabled(user, "viewgroups");
  const showClosed = isManager || settingEnabled(user, "viewclosed");
  const [tab, setTab] = useState<ListTab>("open");
  const [sub, setSub] = useState<"open" | "pending">("open");
  const [search, setSearch] = useState("");
  const [tags, setTags] = useState<number[]>([]);
  const [users, setUsers] = useState<number[]>([]);
  const [whatsappIds, setWhatsappIds] = useState<number[]>([]);
  const [showAll, setShowAll] = useState(false);
  const [order, setOrder] = useState<SortOrder>("DESC");
  const [newOpen, setNewOpen] = useState(false);
  const [groupOpen, setGroupOpen] = useState(false);
  const [spyOn, setSpyOn] = useState<TicketItem | null>(null);
  const [closing, setClosing] = useState<TicketItem | null>(null);
  const [tick, setTick] = useState(0);
  const tagOptions = useOptions("/tags/list");
  const userOptions = useOptions(allowed(user, "tickets-manager:userFilter") ? "/users/list" : null);
  const connOptions = useOptions(allowed(user, "tickets-manager:connectionFilter") ? "/whatsapp" : null);

  useEffect(() => {
    setOrder(readSortOrder());
    const timer = setInterval(() => setTick((n) => n + 1), 60_000);
    return () => clearInterval(timer);
  }, []);

  function changeOrder(next: SortOrder) {
    setOrder(next);
    writeSortOrder(next);
  }

  const filters: ListFilters = {
    searchParam: tab === "search" ? search.trim() : "",
    tags: tab === "search" ? tags : [],
    users: tab === "search" ? users : [],
    whatsappIds,
    showAll: showAll && tab !== "groups" && allowed(user, "tickets-manager:showAllTickets"),
    queueIds: [],
    order,
  };
  const base = { filters, userId: user.id, companyId: user.companyId };
  const spec = (s: Partial<ListSpec>, enabled: boolean): ListSpec => ({ ...base, ...s, enabled });
  const openList = useTicketList(spec({ status: "open", isGroup: tab === "groups" }, tab === "open" || tab === "groups"));
  const pendingList = useTicketList(spec({ status: "pending", isGroup: tab === "groups" }, tab === "open" || tab === "groups"));
  const closedList = useTicketList(spec({ status: "closed" }, tab === "closed"));
  const searchList = useTicketList(spec({ search: true }, tab === "search"));

  const bulkKind: BulkKind | null = tab === "closed" ? "closed" : tab === "open" || tab === "groups" ? sub : null;
  const selection = useSelection(`${tab}:${sub}`);
  const picking = selection.active && bulkKind ? { ids: selection.ids, toggle: selection.toggle } : undefined;
  const row = {
    canSpy: allowed(user, "ticket-options:spy"),
    canPreview: canPreviewPending(user, { viewppw: setting(user, "viewppw") }),
    tick,
    onOpen: (ticket: TicketItem, spy?: boolean) => (spy ? setSpyOn(ticket) : onOpen(ticket)),
    onAccept: async (ticket: TicketItem) => {
      const updated = await acceptTicket(ticket, user.id);
      if (updated) {
        setSub("open");
        onOpen(updated);
      }
    },
    onClosePending: (ticket: TicketItem) => setClosing(ticket),
    onMarkUnread: (ticket: TicketItem) => void markUnread(ticket),
  };
  const iconOnly = !showClosed;

  return (
    <section className="tickets-manager" aria-label={t("tickets.paneList")}>
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as ListTab)} className="manager-tabs">
        <Tabs.List className="tabs" aria-label={t("tickets.paneList")}>
          <Tabs.Trigger value="open" className="tab" aria-label={t("tickets.tabOpen")}>
            <MessagesSquare size={18} aria-hidden="true" />{!iconOnly && <span className="tab-label">{t("tickets.tabOpen")}</span>}
          </Tabs.Trigger>
          {showGroups && (
            <Tabs.Trigger value="groups" className="tab" aria-label={t("tickets.tabGroups")}>
              <UsersRound size={18} aria-hidden="true" />{!iconOnly && <span className="tab-label">{t("tickets.tabGroups")}</span>}
            </Tabs.Trigger>
          )}
          {showClosed && (
            <Tabs.Trigger value="closed" className="tab" aria-label={t("tickets.tabClosed")}>
              <CheckCheck size={18} aria-hidden="true" /><span className="tab-label">{t("tickets.tabClosed")}</span>
            </Tabs.Trigger>
          )}
          {showClosed && (
            <Tabs.Trigger value="search" className="tab" aria-label={t("tickets.tabSearch")}>
              <Search size={18} aria-hidden="true" /><span className="tab-label">{t("tickets.tabSearch")}</span>
            </Tabs.Trigger>
          )}
        </Tabs.List>
        {/* The tab's panel: the list triggers point at it (aria-controls), so it must exist. */}
        <Tabs.Content value={tab} className="manager-panel">
          <div className="manager-toolbar">
            {tab === "search"
              ? (
                <div className="search-filters">
                  <input
                    className="input"
                    type="search"
                    placeholder={t("tickets.searchPlaceholder")}
                    aria-label={t("tickets.searchPlaceholder")}
                    value={search}
                    onChange={(e) => setSearch(e.target.value)}
                  />
                  <ListFilter label={t("tickets.filterTags")} emptyText={t("inbox.filter.allTags")} options={tagOptions} value={tags} onChange={setTags} testId="filter-tags" />
                  {allowed(user, "tickets-manager:userFilter") && (
                    <ListFilter label={t("tickets.filterUsers")} emptyText={t("inbox.filter.allUsers")} options={userOptions} value={users} onChange={setUsers} testId="filter-users" />
                  )}
                </div>
              )
              : (
                <button type="button" className="btn btn-primary btn-small" onClick={() => (tab === "groups" ? setGroupOpen(true) : setNewOpen(true))}>
                  <Plus size={16} aria-hidden="true" /> {t(tab === "groups" ? "tickets.newGroup" : "tickets.newTicket")}
                </button>
              )}
            {allowed(user, "tickets-manager:showAllTickets") && tab !== "groups" && tab !== "search" && (
              <label className="check switch">
                <input type="checkbox" role="switch" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />
                <span>{t("tickets.showAll")}</span>
              </label>
            )}
            {allowed(user, "tickets-manager:connectionFilter") && tab !== "search" && (
              <ListFilter label={t("tickets.filterConnections")} emptyText={t("inbox.filter.allConnections")} options={connOptions} value={whatsappIds} onChange={setWhatsappIds} testId="filter-connections" />
            )}
            <SortToggle order={order} onChange={changeOrder} />
            {bulkKind && (
              <button
                type="button"
                className="icon-btn"
                aria-pressed={selection.active}
                aria-label={t("bulk.select")}
                title={t("bulk.select")}
                onClick={selection.active ? selection.stop : selection.start}
                data-testid="bulk-toggle"
              >
                <ListChecks size={18} aria-hidden="true" />
              </button>
            )}
          </div>
          {(tab === "open" || tab === "groups") && (
            <>
              <div className="subtabs" role="tablist" aria-label={t("tickets.paneList")}>
                <button type="button" role="tab" className="subtab" aria-selected={sub === "open"} onClick={() => setSub("open")} data-testid="subtab-open">
                  {t("tickets.assigned")} <span className="count" data-testid="count-open">{badgeCount(openList.count)}</span>
                </button>
                <button type="button" role="tab" className="subtab" aria-selected={sub === "pending"} onClick={() => setSub("pending")} data-testid="subtab-pending">
                  {t("tickets.pending")} <span className="count" data-testid="count-pending">{badgeCount(pendingList.count)}</span>
                </button>
              </div>
              {picking && <BulkBar selection={selection} kind={sub} visibleIds={(sub === "open" ? openList : pendingList).tickets.map((x) => x.id)} user={user} />}
              <div className="list-host" data-testid={`list-${sub}`}>
                <TicketListView
                  picking={picking}
                  list={sub === "open" ? openList : pendingList}
                  selectedId={selectedId}
                  emptyText={t("tickets.empty")}
                  label={t(sub === "open" ? "tickets.assigned" : "tickets.pending")}
                  {...row}
                />
              </div>
            </>
          )}
          {tab === "closed" && picking && <BulkBar selection={selection} kind="closed" visibleIds={closedList.tickets.map((x) => x.id)} user={user} />}
          {tab === "closed" && (
            <div className="list-host" data-testid="list-closed">
              <TicketListView picking={picking} list={closedList} selectedId={selectedId} emptyText={t("tickets.empty")} label={t("tickets.tabClosed")} {...row} />
            </div>
          )}
          {tab === "search" && (
            <div className="list-host" data-testid="list-search">
              <TicketListView list={searchList} selectedId={selectedId} emptyText={t("tickets.emptySearch")} label={t("tickets.tabSearch")} {...row} />
            </div>
          )}
        </Tabs.Content>
      </Tabs.Root>
      {groupOpen && <NewGroupDialog user={user} open={groupOpen} onOpenChange={setGroupOpen} onCreated={(ticket) => onOpen(ticket)} />}
      {spyOn && <TicketMessagesDialog ticket={spyOn} onClose={() => setSpyOn(null)} />}
      {closing && (
        <ClosePendingDialog
          open
          user={user}
          ticket={closing}
          onOpenChange={(open) => !open && setClosing(null)}
          onClose={async (farewell) => {
            if (await closePending(closing, user.id, farewell)) showToast("success", t("closePending.done"));
          }}
        />
      )}
      {newOpen && <NewTicketDialog user={user} open={newOpen} onOpenChange={setNewOpen} onCreated={(ticket) => onOpen(ticket)} />}
    </section>
  );
}
