/**
 * New-ticket dialog (spec 000 §5): contact search from 3 characters after 500 ms, up to 5
 * contacts, a queue (required unless admin or supervisor) and a connection (required); one
 * POST /tickets per contact, opened for the current user.
 */
import { type FormEvent, useEffect, useState } from "react";
import { X } from "lucide-react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { manager, type SessionUser } from "../lib/session.ts";
import { toastError } from "../lib/toast.ts";
import { Modal } from "../ui/Modal.tsx";
import type { Option, TicketItem } from "./types.ts";
import { useOptions } from "./use_options.ts";
import { useSearch } from "./use_search.ts";

const MAX_CONTACTS = 5;

/** Props of NewTicketDialog. */
export interface NewTicketDialogProps {
  user: SessionUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (ticket: TicketItem) => void;
}

/** Opens tickets for up to 5 contacts. */
export function NewTicketDialog({ user, open, onOpenChange, onCreated }: NewTicketDialogProps) {
  const [text, setText] = useState("");
  const [contacts, setContacts] = useState<Option[]>([]);
  const [queueId, setQueueId] = useState<number | "">(user.queues.length === 1 ? user.queues[0].id : "");
  const [whatsappId, setWhatsappId] = useState<number | "">(user.whatsappId ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const results = useSearch("/contacts/", text, "contacts");
  const allQueues = useOptions(manager(user) ? "/queue" : null);
  const queues = manager(user) ? allQueues : user.queues;
  const connections = useOptions("/whatsapp");
  useEffect(() => {
    // Preselect the default connection (or the only one).
    const preferred = connections.find((c) => (c as Option & { isDefault?: boolean }).isDefault) ??
      (connections.length === 1 ? connections[0] : undefined);
    if (whatsappId === "" && preferred) setWhatsappId(preferred.id);
  }, [connections]);

  function add(contact: Option) {
    if (contacts.some((c) => c.id === contact.id)) return;
    if (contacts.length >= MAX_CONTACTS) {
      setErrors({ contacts: t("newTicket.maxContacts") });
      return;
    }
    setContacts([...contacts, contact]);
    setText("");
    setErrors({});
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const e: Record<string, string> = {};
    if (contacts.length === 0) e.contacts = t("newTicket.addContacts");
    if (queueId === "" && !manager(user)) e.queueId = t("newTicket.selectQueue");
    if (whatsappId === "") e.whatsappId = t("newTicket.selectConnection");
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    let last: TicketItem | null = null;
    for (const contact of contacts) {
      try {
        last = await api<TicketItem>("POST", "/tickets", {
          contactId: contact.id,
          queueId: queueId === "" ? null : queueId,
          whatsappId,
          userId: user.id,
          status: "open",
        });
      } catch (error) {
        toastError((error as { body?: unknown }).body ?? error);
      }
    }
    setBusy(false);
    if (last) {
      onOpenChange(false);
      onCreated(last);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("newTicket.title")}
      footer={
        <>
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>{t("common.cancel")}</button>
          <button type="submit" form="new-ticket-form" className="btn btn-primary" disabled={busy}>{t("newTicket.open")}</button>
        </>
      }
    >
      <form id="new-ticket-form" onSubmit={submit} noValidate>
        <label className="field">
          <span>{t("newTicket.searchContact")}</span>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} aria-invalid={!!errors.contacts} autoFocus />
          {errors.contacts && <small className="field-error">{errors.contacts}</small>}
        </label>
        {text.trim().length >= 3 && (
          <ul className="pick-list" aria-label={t("newTicket.searchContact")}>
            {results.length === 0 && <li className="muted">{t("newTicket.noResults")}</li>}
            {results.map((c) => (
              <li key={c.id}>
                <button type="button" className="pick" onClick={() => add(c)}>
                  {c.name} <span className="muted">{(c as Option & { number?: string }).number}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="chips">
          {contacts.map((c) => (
            <span key={c.id} className="chip chip-removable">
              {c.name}
              <button type="button" aria-label={`${t("common.delete")} ${c.name}`} onClick={() => setContacts(contacts.filter((x) => x.id !== c.id))}>
                <X size={12} />
              </button>
            </span>
          ))}
        </div>
        <label className="field">
          <span>{t("newTicket.queue")}</span>
          <select value={queueId} onChange={(e) => setQueueId(e.target.value ? Number(e.target.value) : "")} aria-invalid={!!errors.queueId}>
            <option value="">{t("common.select")}</option>
            {queues.map((q) => <option key={q.id} value={q.id}>{q.name}</option>)}
          </select>
          {errors.queueId && <small className="field-error">{errors.queueId}</small>}
        </label>
        <label className="field">
          <span>{t("newTicket.connection")}</span>
          <select value={whatsappId} onChange={(e) => setWhatsappId(e.target.value ? Number(e.target.value) : "")} aria-invalid={!!errors.whatsappId}>
            <option value="">{t("common.select")}</option>
            {connections.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
          </select>
          {errors.whatsappId && <small className="field-error">{errors.whatsappId}</small>}
        </label>
      </form>
    </Modal>
  );
}
