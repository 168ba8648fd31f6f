/**
 * The contacts screen (spec 001 §2.14): the title with the total, search, add, 'Adicionar a
 * carteira' for the selection (admin only), 'Excluir todos' for the selection (with a
 * confirmation), the Importar/Exportar menu (a file, the phone's address book through
 * POST /contacts/import, every chat through POST /contacts/import/chats, the export), and
 * the table (./contacts/columns.tsx) with select-all. Rows change live on `company-{id}-contact`; an import's progress arrives on
 * `company-{id}-contactImport` as toasts (./contacts/import_file.ts).
 *
 * Permissions (domain/permissions.ts, the server checks the same): assigning wallets
 * `contacts-page:assignUsers`, deleting `contacts-page:deleteContact`, exporting
 * `contact-page:exports`; everyone may list, add, edit, block, import and open a ticket.
 */
import { useMemo, useRef, useState } from "react";
import { ChevronDown, Plus, Trash2, WalletCards } from "lucide-react";
import type { RowSelectionState } from "@tanstack/react-table";
import { DropdownMenu } from "radix-ui";
import { api, get, query } from "./lib/api.ts";
import { t } from "./lib/i18n.ts";
import { allowed } from "./lib/session.ts";
import { showToast, toastError } from "./lib/toast.ts";
import { AdminPage, type AdminPageProps, useViewer } from "./ui/AdminPage.tsx";
import { ConfirmDialog } from "./ui/ConfirmDialog.tsx";
import { DataTable } from "./ui/DataTable.tsx";
import { usePagedList } from "./ui/use_paged_list.ts";
import { useLiveRows } from "./ui/use_live_rows.ts";
import { useOptions } from "./ui/use_options.ts";
import { contactColumns } from "./contacts/columns.tsx";
import { ContactDialog } from "./contacts/ContactDialog.tsx";
import { ExportDialog } from "./contacts/ExportDialog.tsx";
import { importChats, importFile, importPhoneBook } from "./contacts/import_file.ts";
import { ImportDialog } from "./contacts/ImportDialog.tsx";
import { ticketFor } from "./contacts/open_ticket.ts";
import type { ContactRow, ContactsResponse } from "./contacts/types.ts";
import { WalletDialog } from "./contacts/WalletDialog.tsx";

/** Props of the ContactsPage island. */
export type ContactsPageProps = AdminPageProps<ContactsResponse>;

const rowId = (contact: ContactRow) => contact.id;

/** Which dialog is open. */
type Dialog =
  | { kind: "edit"; contact: ContactRow | null }
  | { kind: "wallet"; ids: number[]; current: number | null }
  | { kind: "delete"; contact: ContactRow }
  | { kind: "deleteAll" }
  | { kind: "import" }
  | { kind: "importChats" }
  | { kind: "importPhone" }
  | { kind: "export" };

/** The contacts page. */
export default function ContactsPage({ initial, viewer: serverViewer }: ContactsPageProps) {
  const viewer = useViewer(serverViewer);
  const can = {
    assign: viewer ? allowed(viewer, "contacts-page:assignUsers") : false,
    remove: viewer ? allowed(viewer, "contacts-page:deleteContact") : false,
    exports: viewer ? allowed(viewer, "contact-page:exports") : false,
  };
  const list = usePagedList<ContactRow>({
    initial: initial && { rows: initial.contacts, hasMore: initial.hasMore, count: initial.count },
    fetchPage: async (pageNumber, searchParam) => {
      const r = await get<ContactsResponse>(`/contacts/${query({ searchParam, pageNumber })}`);
      return { rows: r.contacts, hasMore: r.hasMore, count: r.count };
    },
    rowId,
  });
  // While this page imports, its thousand create events are not drawn one by one: the list
  // reloads in name order when the import ends.
  const importing = useRef(0);
  useLiveRows(viewer, list, {
    suffix: "contact",
    record: "contact",
    idKey: "contactId",
    toRow: (record) => (importing.current > 0 ? null : record as unknown as ContactRow),
  });
  const userList = useOptions(viewer ? "/users/list" : null);
  const users = useMemo(() => new Map(userList.map((u) => [u.id, u.name])), [userList]);
  const [selection, setSelection] = useState<RowSelectionState>({});
  // Only rows on screen count: a search or a live delete may have taken selected rows away.
  const selectedIds = list.rows.filter((r) => selection[r.id]).map(rowId);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);

  const columns = useMemo(() =>
    contactColumns({
      assign: can.assign,
      remove: can.remove,
      users,
      onOpenTicket: (c) => viewer && openTicket(c),
      onEdit: (c) => setDialog({ kind: "edit", contact: c }),
      viewerId: viewer?.id ?? null,
      onAssign: (c) => setDialog({ kind: "wallet", ids: [c.id], current: c.walleteUserId }),
      onAddToMyWallet: addToMyWallet,
      onToggleBlock: toggleBlock,
      onDelete: (c) => setDialog({ kind: "delete", contact: c }),
    }), [can.assign, can.remove, users, viewer]);

  async function openTicket(contact: ContactRow) {
    try {
      location.assign(`/tickets/${await ticketFor(viewer!, contact.id)}`);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  async function addToMyWallet(contact: ContactRow) {
    if (!viewer) return;
    try {
      await api("PUT", "/wallets/contacts", { contactIds: [contact.id], walleteUserId: viewer.id });
      list.upsert({ ...contact, walleteUserId: viewer.id });
      showToast("success", t("contacts.addedToMyWallet"));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  async function toggleBlock(contact: ContactRow) {
    try {
      const saved = await api<ContactRow>("PUT", `/contacts/block/${contact.id}`, { active: !contact.active });
      list.upsert(saved);
      showToast("success", t(saved.active ? "contacts.unblockedToast" : "contacts.blockedToast"));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  async function remove(ids: number[]) {
    try {
      if (ids.length === 1) await api("DELETE", `/contacts/${ids[0]}`);
      else await api("DELETE", "/contacts/bulk-delete", { contactIds: ids });
      for (const id of ids) list.remove(id);
      setSelection({});
      showToast("success", ids.length === 1 ? t("contacts.deleted") : t("contacts.deletedMany", { n: ids.length }));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  async function runImport(run: () => Promise<unknown>) {
    importing.current++;
    try {
      await run();
    } finally {
      // Still quiet while the reload runs, so a late create event is not counted twice.
      await list.reload();
      importing.current--;
    }
  }

  // The two imports from the default connection's phone ask first, each with its own texts.
  const phoneImport = dialog?.kind === "importPhone" || dialog?.kind === "importChats" ? PHONE_IMPORTS[dialog.kind] : null;

  function walletSaved(ids: number[], walleteUserId: number | null) {
    for (const row of list.rows) if (ids.includes(row.id)) list.upsert({ ...row, walleteUserId });
  }

  return (
    <AdminPage
      title={t("contacts.title")}
      count={list.count}
      search={{
        value: list.search,
        onChange: (text) => {
          setSelection({});
          list.setSearch(text);
        },
      }}
      actions={
        <>
          <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: "edit", contact: null })}>
            <Plus size={16} aria-hidden="true" /> {t("contacts.add")}
          </button>
          {can.assign && (
            <button
              type="button"
              className="btn"
              disabled={selectedIds.length === 0}
              onClick={() => setDialog({ kind: "wallet", ids: selectedIds, current: null })}
            >
              <WalletCards size={16} aria-hidden="true" /> {t("contacts.addToWallet")}
            </button>
          )}
          {can.remove && (
            <button type="button" className="btn btn-danger" disabled={selectedIds.length === 0} onClick={() => setDialog({ kind: "deleteAll" })}>
              <Trash2 size={16} aria-hidden="true" /> {t("contacts.deleteAll")}
            </button>
          )}
          <ImportExportMenu exports={can.exports} onPick={(kind) => setDialog({ kind })} />
        </>
      }
      testId="contacts-page"
    >
      <DataTable
        list={list}
        columns={columns}
        rowId={rowId}
        label={t("contacts.title")}
        emptyText={t("contacts.empty")}
        selection={selection}
        onSelectionChange={setSelection}
        tint={(c) => (c.active ? undefined : "danger")}
        testId="contacts-table"
      />
      {dialog?.kind === "edit" && <ContactDialog contact={dialog.contact} onClose={close} onSaved={list.upsert} />}
      {dialog?.kind === "wallet" && (
        <WalletDialog
          contactIds={dialog.ids}
          current={dialog.current}
          users={userList}
          onClose={close}
          onSaved={(owner) => walletSaved(dialog.ids, owner)}
        />
      )}
      {dialog?.kind === "import" && viewer && <ImportDialog onClose={close} onImport={(file) => runImport(() => importFile(viewer.companyId, file))} />}
      {dialog?.kind === "export" && <ExportDialog contactIds={selectedIds} onClose={close} />}
      <ConfirmDialog
        open={dialog?.kind === "delete"}
        onOpenChange={(o) => !o && close()}
        onConfirm={() => dialog?.kind === "delete" && remove([dialog.contact.id])}
      />
      <ConfirmDialog
        open={dialog?.kind === "deleteAll"}
        onOpenChange={(o) => !o && close()}
        title={t("contacts.deleteAllTitle")}
        text={t("contacts.deleteAllText", { n: selectedIds.length })}
        onConfirm={() => remove(selectedIds)}
      />
      <ConfirmDialog
        open={phoneImport !== null}
        onOpenChange={(o) => !o && close()}
        title={phoneImport ? t(phoneImport.title) : ""}
        text={phoneImport ? t(phoneImport.text) : ""}
        onConfirm={() => viewer && phoneImport && runImport(() => phoneImport.run(viewer.companyId))}
      />
    </AdminPage>
  );
}

/** The imports from the default connection's phone: the address book, every individual chat. */
const PHONE_IMPORTS = {
  importPhone: { title: "contacts.importPhone", text: "contacts.importPhoneText", run: importPhoneBook },
  importChats: { title: "contacts.importChats", text: "contacts.importChatsText", run: importChats },
} as const;

/** The Importar/Exportar menu; exporting only for `contact-page:exports`. */
function ImportExportMenu({ exports, onPick }: { exports: boolean; onPick: (kind: "import" | "importPhone" | "importChats" | "export") => void }) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="btn">
        {t("contacts.importExport")} <ChevronDown size={16} aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu-popup" align="end">
          <DropdownMenu.Item className="menu-popup-item" onSelect={() => onPick("import")}>{t("contacts.import")}</DropdownMenu.Item>
          <DropdownMenu.Item className="menu-popup-item" onSelect={() => onPick("importPhone")}>{t("contacts.importPhone")}</DropdownMenu.Item>
          <DropdownMenu.Item className="menu-popup-item" onSelect={() => onPick("importChats")}>{t("contacts.importChats")}</DropdownMenu.Item>
          {exports && <DropdownMenu.Item className="menu-popup-item" onSelect={() => onPick("export")}>{t("contacts.export")}</DropdownMenu.Item>}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
