/**
 * New-ticket dialog (spec 000 §5): contact search from 3 characters after 500 ms, up to 5
 * contacts, a queue (required unless admin or supervisor) and a connection (required); one
 * POST /tickets per contact, opened for the current user. A person not yet in the contacts is
 * added from here ("Adicionar contato", the contact dialog of the contacts screen with the
 * search text as the name, or as the number when it is one) and picked once saved.
 */
import { type FormEvent, useState } from "react";
import { UserPlus } from "lucide-react";
import { api } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { manager, type SessionUser } from "../lib/session.ts";
import { toastError } from "../lib/toast.ts";
import { Modal } from "../ui/Modal.tsx";
import type { Option, TicketItem } from "./types.ts";
import { ContactChips, ContactSearch, OptionSelect, useConnectionChoice } from "./pickers.tsx";
import { useOptions } from "../ui/use_options.ts";
import { SEARCH_MIN, useSearch } from "./use_search.ts";
import { ContactDialog } from "../contacts/ContactDialog.tsx";

const MAX_CONTACTS = 5;

/** A saved contact as the picker holds it (with its number, which the chips' list shows). */
function pickOf(contact: { id: number; name: string; number: string }): Option {
  const picked: Option & { number: string } = { id: contact.id, name: contact.name, number: contact.number };
  return picked;
}

/** The new contact's first values from the search text: digits are its number, else its name. */
function newContactValues(text: string): { name?: string; number?: string } {
  const typed = text.trim();
  return /^[\d\s()+-]+$/.test(typed) ? { number: typed.replace(/\D/g, "") } : { name: typed };
}

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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [creating, setCreating] = useState(false);
  const results = useSearch("/contacts/", text, "contacts");
  const allQueues = useOptions(manager(user) ? "/queue" : null);
  const queues = manager(user) ? allQueues : user.queues;
  const { connections, whatsappId, setWhatsappId } = useConnectionChoice(user.whatsappId ?? "");

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
        <ContactSearch text={text} onTextChange={setText} results={results} onPick={add} error={errors.contacts} autoFocus detailed />
        {text.trim().length >= SEARCH_MIN && (
          <button type="button" className="btn btn-small" onClick={() => setCreating(true)} data-testid="new-ticket-add-contact">
            <UserPlus size={14} aria-hidden="true" /> {t("inbox.newTicket.addContact", { text: text.trim() })}
          </button>
        )}
        <ContactChips contacts={contacts} onChange={setContacts} />
        <OptionSelect label={t("newTicket.queue")} value={queueId} onChange={setQueueId} options={queues} error={errors.queueId} />
        <OptionSelect label={t("newTicket.connection")} value={whatsappId} onChange={setWhatsappId} options={connections} error={errors.whatsappId} />
      </form>
      {creating && (
        <ContactDialog
          contact={null}
          initial={newContactValues(text)}
          onClose={() => setCreating(false)}
          onSaved={(saved) => add(pickOf(saved))}
        />
      )}
    </Modal>
  );
}
