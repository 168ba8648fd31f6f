/**
 * New-group dialog (spec 000 §2, §5): group name, contacts (search from 3 characters),
 * queue ('Selecione uma fila!') and connection ('Selecione uma conexão!') required;
 * POST /creatGroupAndTicket opens the group's ticket for the current user.
 */
import { type FormEvent, useEffect, useState } from "react";
import { X } from "lucide-react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { manager, type SessionUser } from "../lib/session.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { Modal } from "../ui/Modal.tsx";
import type { Option, TicketItem } from "./types.ts";
import { useOptions } from "./use_options.ts";
import { useSearch } from "./use_search.ts";

/** Props of NewGroupDialog. */
export interface NewGroupDialogProps {
  user: SessionUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (ticket: TicketItem) => void;
}

/** Creates a WhatsApp group with its ticket. */
export function NewGroupDialog({ user, open, onOpenChange, onCreated }: NewGroupDialogProps) {
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const [contacts, setContacts] = useState<Option[]>([]);
  const [queueId, setQueueId] = useState<number | "">("");
  const [whatsappId, setWhatsappId] = useState<number | "">(user.whatsappId ?? "");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const results = useSearch("/contacts/", text, "contacts");
  const allQueues = useOptions(manager(user) ? "/queue" : null);
  const connections = useOptions("/whatsapp");
  useEffect(() => {
    // Preselect the default connection (or the only one).
    const preferred = connections.find((c) => (c as Option & { isDefault?: boolean }).isDefault) ??
      (connections.length === 1 ? connections[0] : undefined);
    if (whatsappId === "" && preferred) setWhatsappId(preferred.id);
  }, [connections]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const e: Record<string, string> = {};
    if (!title.trim()) e.title = t("validation.required");
    if (queueId === "") e.queueId = t("group.queueRequired");
    if (whatsappId === "") e.whatsappId = t("group.connectionRequired");
    setErrors(e);
    if (Object.keys(e).length) return;
    if (contacts.length === 0) return showToast("error", t("messages.selectContact"));
    try {
      const r = await api<TicketItem | { ticket?: TicketItem }>("POST", "/creatGroupAndTicket", {
        contactsAddGroup: contacts.map((c) => c.id),
        titleGroup: title.trim(),
        queueId,
        whatsappId,
        userId: user.id,
        status: "open",
      });
      onOpenChange(false);
      const ticket = "uuid" in r ? r : r.ticket;
      if (ticket) onCreated(ticket);
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t("group.title")} footer={
      <>
        <button type="button" className="btn" onClick={() => onOpenChange(false)}>{t("common.cancel")}</button>
        <button type="submit" form="new-group-form" className="btn btn-primary">{t("group.create")}</button>
      </>
    }>
      <form id="new-group-form" onSubmit={submit} noValidate>
        <label className="field">
          <span>{t("group.name")}</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} aria-invalid={!!errors.title} autoFocus />
          {errors.title && <small className="field-error">{errors.title}</small>}
        </label>
        <label className="field">
          <span>{t("newTicket.searchContact")}</span>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        {results.length > 0 && (
          <ul className="pick-list">
            {results.map((c) => (
              <li key={c.id}>
                <button type="button" className="pick" onClick={() => {
                  if (!contacts.some((x) => x.id === c.id)) setContacts([...contacts, c]);
                  setText("");
                }}>{c.name}</button>
              </li>
            ))}
          </ul>
        )}
        <div className="chips">
          {contacts.map((c) => (
            <span key={c.id} className="chip chip-removable">
              {c.name}
              <button type="button" aria-label={`${t("common.delete")} ${c.name}`} onClick={() => setContacts(contacts.filter((x) => x.id !== c.id))}><X size={12} /></button>
            </span>
          ))}
        </div>
        <label className="field">
          <span>{t("newTicket.queue")}</span>
          <select value={queueId} onChange={(e) => setQueueId(e.target.value ? Number(e.target.value) : "")} aria-invalid={!!errors.queueId}>
            <option value="">{t("common.select")}</option>
            {(manager(user) ? allQueues : user.queues).map((q) => <option key={q.id} value={q.id}>{q.name}</option>)}
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
