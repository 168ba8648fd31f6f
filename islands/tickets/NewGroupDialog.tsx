/**
 * New-group dialog (spec 000 §2, §5): group name, contacts (search from 3 characters),
 * queue ('Selecione uma fila!') and connection ('Selecione uma conexão!') required;
 * POST /creatGroupAndTicket opens the group's ticket for the current user.
 */
import { type FormEvent, useState } from "react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { manager, type SessionUser } from "../lib/session.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { Modal } from "../ui/Modal.tsx";
import type { Option, TicketItem } from "./types.ts";
import { ContactChips, ContactSearch, OptionSelect, useConnectionChoice } from "./pickers.tsx";
import { useOptions } from "../ui/use_options.ts";
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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const results = useSearch("/contacts/", text, "contacts");
  const allQueues = useOptions(manager(user) ? "/queue" : null);
  const { connections, whatsappId, setWhatsappId } = useConnectionChoice(user.whatsappId ?? "");

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
        <ContactSearch
          text={text}
          onTextChange={setText}
          results={results}
          onPick={(c) => {
            if (!contacts.some((x) => x.id === c.id)) setContacts([...contacts, c]);
            setText("");
          }}
        />
        <ContactChips contacts={contacts} onChange={setContacts} />
        <OptionSelect label={t("newTicket.queue")} value={queueId} onChange={setQueueId} options={manager(user) ? allQueues : user.queues} error={errors.queueId} />
        <OptionSelect label={t("newTicket.connection")} value={whatsappId} onChange={setWhatsappId} options={connections} error={errors.whatsappId} />
      </form>
    </Modal>
  );
}
