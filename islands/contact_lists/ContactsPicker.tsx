/**
 * "Add from existing contacts" on a contact list's page (issue #19): the company's contacts
 * searched and paged by the contacts API (infinite scroll), a checkbox per row, and the chosen
 * ones added with POST /contact-lists/{id}/add-contacts. The choice is kept by contact id, so
 * it survives a new search or more pages; numbers already in the list are skipped by the
 * server and counted in the toast. Groups cannot receive a campaign and are not offered.
 */
import { useMemo, useState } from "react";
import type { RowSelectionState } from "@tanstack/react-table";
import { api, get, query } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { type ColumnDef, DataTable } from "../ui/DataTable.tsx";
import { Modal } from "../ui/Modal.tsx";
import { SearchBox } from "../ui/SearchBox.tsx";
import { usePagedList } from "../ui/use_paged_list.ts";
import { MAX } from "../../domain/text.ts";

/** A contact as GET /contacts pages it (the fields the picker shows). */
interface ContactRow {
  id: number;
  name: string;
  number: string;
  email: string;
  isGroup: boolean;
}

const rowId = (r: ContactRow) => r.id;

/** The picker dialog of list `contactListId`; `onDone` after contacts were added. */
export function ContactsPicker(
  { contactListId, onClose, onDone }: { contactListId: number; onClose: () => void; onDone: () => void },
) {
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [busy, setBusy] = useState(false);
  const list = usePagedList<ContactRow>({
    initial: null,
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<{ contacts: ContactRow[]; hasMore: boolean; count: number }>(`/contacts${query({ searchParam, pageNumber })}`);
      return { rows: r.contacts.filter((c) => !c.isGroup), hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  const chosen = Object.keys(selection).filter((id) => selection[id]).map(Number);

  const columns = useMemo<ColumnDef<ContactRow, unknown>[]>(() => [
    { accessorKey: "name", header: t("contactListItems.colName") },
    { accessorKey: "number", header: t("contactListItems.colNumber") },
    { accessorKey: "email", header: t("contactListItems.colEmail") },
  ], []);

  async function add() {
    setBusy(true);
    try {
      // The server takes MAX.list ids a call: a larger choice goes in several.
      let created = 0, duplicated = 0;
      for (let i = 0; i < chosen.length; i += MAX.list) {
        const contactIds = chosen.slice(i, i + MAX.list);
        const r = await api<{ created: number; duplicated: number }>("POST", `/contact-lists/${contactListId}/add-contacts`, { contactIds });
        created += r.created;
        duplicated += r.duplicated;
      }
      showToast("success", t("contactListItems.added", { created, duplicated }));
      onDone();
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      wide
      onOpenChange={(o) => !o && onClose()}
      title={t("contactListItems.fromContacts")}
      footer={
        <>
          <span className="picker-count" aria-live="polite" data-testid="contacts-picker-count">
            {t("contactListItems.selected", { count: chosen.length })}
          </span>
          <button type="button" className="btn" onClick={onClose}>{t("common.cancel")}</button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || chosen.length === 0}
            aria-busy={busy}
            onClick={add}
            data-testid="contacts-picker-add"
          >
            {t("contactListItems.addSelected")}
          </button>
        </>
      }
    >
      <div className="picker" data-testid="contacts-picker">
        <SearchBox value={list.search} onChange={list.setSearch} autoFocus />
        <DataTable
          list={list}
          columns={columns}
          rowId={rowId}
          selection={selection}
          onSelectionChange={setSelection}
          label={t("contactListItems.fromContacts")}
          emptyText={t("contactListItems.noContacts")}
          testId="contacts-picker-table"
        />
      </div>
    </Modal>
  );
}
