/**
 * The bar of the list's selection mode: how many tickets are selected, select all of the
 * list shown, and the actions that fit the list (pending: accept, close; open: resolve,
 * return, transfer, mark as unread; resolved: reopen), each one PUT /tickets/multiUpdate.
 * Escape or the close button ends the mode. It wraps at phone width.
 */
import { useEffect, useState } from "react";
import { X } from "lucide-react";
import { t } from "../lib/i18n.ts";
import type { SessionUser } from "../lib/session.ts";
import { bulkUpdate } from "./bulk.ts";
import { TransferDialog } from "./dialogs.tsx";
import type { Selection } from "./use_selection.ts";

/** Which list the selection is in: it decides the actions offered. */
export type BulkKind = "open" | "pending" | "closed";

/** Props of BulkBar. */
export interface BulkBarProps {
  selection: Selection;
  kind: BulkKind;
  /** Ids of the tickets the list shows now (select all). */
  visibleIds: number[];
  user: SessionUser;
}

/** The bulk actions bar shown above a list in selection mode. */
export function BulkBar({ selection, kind, visibleIds, user }: BulkBarProps) {
  const [busy, setBusy] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const ids = [...selection.ids];
  const allChecked = visibleIds.length > 0 && visibleIds.every((id) => selection.ids.has(id));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !transferring) selection.stop();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [selection, transferring]);

  async function apply(body: Record<string, unknown>) {
    if (ids.length === 0) return;
    setBusy(true);
    const outcome = await bulkUpdate(ids, body);
    setBusy(false);
    if (outcome) selection.clear();
  }

  const action = (label: string, body: Record<string, unknown>, testId: string) => (
    <button type="button" className="btn btn-small" disabled={busy || ids.length === 0} onClick={() => apply(body)} data-testid={testId}>
      {label}
    </button>
  );

  return (
    <div className="bulk-bar" role="toolbar" aria-label={t("bulk.toolbar")} data-testid="bulk-bar">
      <button type="button" className="icon-btn" onClick={selection.stop} aria-label={t("bulk.exit")} title={t("bulk.exit")} data-testid="bulk-exit">
        <X size={16} aria-hidden="true" />
      </button>
      <input
        type="checkbox"
        className="ticket-check"
        checked={allChecked}
        onChange={() => selection.toggleAll(visibleIds)}
        aria-label={t("bulk.selectAll")}
        title={t("bulk.selectAll")}
        data-testid="bulk-all"
      />
      <span className="bulk-count" aria-live="polite" data-testid="bulk-count">{t("bulk.selected", { count: ids.length })}</span>
      <span className="bulk-actions">
        {kind === "pending" && action(t("tickets.accept"), { status: "open", userId: user.id }, "bulk-accept")}
        {kind === "pending" && action(t("tickets.close"), { status: "closed", userId: user.id }, "bulk-close")}
        {kind === "open" && action(t("tickets.resolve"), { status: "closed", sendFarewellMessage: true }, "bulk-resolve")}
        {kind === "open" && action(t("tickets.return"), { status: "pending", userId: null, return: true }, "bulk-return")}
        {kind === "open" && (
          <button type="button" className="btn btn-small" disabled={busy || ids.length === 0} onClick={() => setTransferring(true)} data-testid="bulk-transfer">
            {t("tickets.transfer")}
          </button>
        )}
        {kind === "open" && action(t("tickets.markUnread"), { unreadMessages: 1 }, "bulk-unread")}
        {kind === "closed" && action(t("tickets.reopen"), { status: "open", userId: user.id }, "bulk-reopen")}
      </span>
      {transferring && (
        <TransferDialog
          open={transferring}
          onOpenChange={setTransferring}
          user={user}
          onTransfer={(queueId, userId) => apply({ queueId, userId, status: userId ? "open" : "pending" })}
        />
      )}
    </div>
  );
}
