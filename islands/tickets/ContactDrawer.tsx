/**
 * The contact drawer on the right (320 px): contact data and extra info (edited in the contact
 * dialog), the ticket's tags
 * (POST /tags/sync), and notes (GET /ticket-notes/list, add with at least 2 characters,
 * delete) with the spec's success toasts.
 */
import { type FormEvent, useEffect, useState } from "react";
import { Pencil, Trash2, X } from "lucide-react";
import { api, get, query } from "../lib/api.ts";
import { formatDate, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { ErrorState, Skeleton } from "../ui/States.tsx";
import { ContactEditDialog } from "./ContactEditDialog.tsx";
import type { TicketItem } from "./types.ts";
import { useOptions } from "../ui/use_options.ts";
import { textColorOn } from "../../domain/text_color.ts";

interface Contact {
  id: number;
  name: string;
  number: string;
  email: string;
  extraInfo: { name: string; value: string }[];
}

interface Note {
  id: number;
  note: string;
  createdAt: string;
  user?: { name: string } | null;
}

/** Props of ContactDrawer. */
export interface ContactDrawerProps {
  ticket: TicketItem;
  onClose: () => void;
}

/** Contact details, tags and notes of the open ticket. */
export function ContactDrawer({ ticket, onClose }: ContactDrawerProps) {
  const [contact, setContact] = useState<Contact | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState(false);
  const [notes, setNotes] = useState<Note[]>([]);
  const [note, setNote] = useState("");
  const [noteError, setNoteError] = useState("");
  const allTags = useOptions("/tags/list");
  const contactId = ticket.contactId;

  function load() {
    setFailed(false);
    get<Contact>(`/contacts/${contactId}`).then(setContact, () => setFailed(true));
    get<Note[]>("/ticket-notes/list" + query({ ticketId: ticket.id, contactId })).then((n) => setNotes(Array.isArray(n) ? n : []), () => {});
  }
  // Reloaded when the contact's shown fields change live (an edit by anyone: contact_patch.ts).
  useEffect(load, [contactId, ticket.id, ticket.contact?.name, ticket.contact?.number]);

  async function toggleTag(id: number, on: boolean) {
    const ids = ticket.tags.map((x) => x.id).filter((x) => x !== id);
    try {
      await api("POST", "/tags/sync", { ticketId: ticket.id, tags: on ? [...ids, id] : ids });
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  async function addNote(event: FormEvent) {
    event.preventDefault();
    if (note.trim().length < 2) return setNoteError(t("contact.noteMin"));
    try {
      await api("POST", "/ticket-notes", { note: note.trim(), ticketId: ticket.id, contactId });
      setNote("");
      setNoteError("");
      showToast("success", t("contact.noteAdded"));
      load();
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  async function removeNote(id: number) {
    try {
      await api("DELETE", `/ticket-notes/${id}`);
      showToast("success", t("contact.noteDeleted"));
      setNotes(notes.filter((n) => n.id !== id));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    }
  }

  return (
    <aside className="contact-drawer" aria-label={t("contact.drawerTitle")}>
      {editing && contact && <ContactEditDialog contact={contact} onClose={() => setEditing(false)} onSaved={(saved) => setContact({ ...contact, ...saved })} />}
      <header className="pane-header">
        <h2>{t("contact.drawerTitle")}</h2>
        <button type="button" className="icon-btn" aria-label={t("contact.closeDrawer")} onClick={onClose}><X size={18} /></button>
      </header>
      <div className="contact-body">
        {!contact && !failed && <Skeleton rows={2} />}
        {failed && <ErrorState onRetry={load} />}
        {contact && (
          <section>
            <div className="section-title">
              <h3>{contact.name}</h3>
              <button type="button" className="btn btn-small" onClick={() => setEditing(true)} data-testid="contact-edit">
                <Pencil size={14} aria-hidden="true" /> {t("contactForm.edit")}
              </button>
            </div>
            <p className="muted">{t("contact.number")}: {contact.number}</p>
            {contact.email && <p className="muted">{t("contact.email")}: {contact.email}</p>}
            {contact.extraInfo?.length > 0 && (
              <dl className="extra-info">
                <h4>{t("contact.extraInfo")}</h4>
                {contact.extraInfo.map((info, i) => (
                  <div key={i}><dt>{info.name}</dt><dd>{info.value}</dd></div>
                ))}
              </dl>
            )}
          </section>
        )}
        <section>
          <h3>{t("contact.tags")}</h3>
          {allTags.length === 0 && <p className="muted">{t("contact.noTags")}</p>}
          <div className="chips">
            {allTags.map((tag) => {
              const on = ticket.tags.some((x) => x.id === tag.id);
              return (
                <button key={tag.id} type="button" className={`chip chip-toggle ${on ? "on" : ""}`} aria-pressed={on} style={on ? { background: tag.color, color: textColorOn(tag.color) } : undefined} onClick={() => toggleTag(tag.id, !on)}>
                  {tag.name}
                </button>
              );
            })}
          </div>
        </section>
        <section>
          <h3>{t("contact.notes")}</h3>
          <form onSubmit={addNote} className="note-form">
            <textarea className="input" rows={2} value={note} placeholder={t("contact.notePlaceholder")} aria-label={t("contact.notePlaceholder")} onChange={(e) => setNote(e.target.value)} aria-invalid={!!noteError} />
            {noteError && <small className="field-error">{noteError}</small>}
            <button type="submit" className="btn btn-small">{t("common.add")}</button>
          </form>
          {notes.length === 0 && <p className="muted">{t("contact.noNotes")}</p>}
          <ul className="notes">
            {notes.map((n) => (
              <li key={n.id}>
                <p>{n.note}</p>
                <small className="muted">{n.user?.name} · {formatDate(n.createdAt)} {formatTime(n.createdAt)}</small>
                <button type="button" className="icon-btn" aria-label={t("common.delete")} onClick={() => removeNote(n.id)}><Trash2 size={14} /></button>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </aside>
  );
}
