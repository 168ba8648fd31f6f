/**
 * A contact card (vCard) in a conversation (spec 000 §5 "vCard lookup"): the card's name and
 * number, looked up once per page (GET /contacts/lookup: the contact that has the number, and
 * whether it is on WhatsApp), and a "Conversar" button that opens that contact's open or
 * pending ticket, or creates one (islands/contacts/open_ticket.ts) on the conversation's
 * connection, creating the contact first when it is new (POST /contacts, which also checks the
 * number). The button is disabled, and says so, for a card without a name or a number and for
 * a number not on WhatsApp. Without `chat` (the read-only ticket messages dialog) the card is
 * shown with no button.
 */
import { useEffect, useState } from "react";
import { MessageSquare, UserRound } from "lucide-react";
import { readVcard } from "../../domain/message.ts";
import { api, get, query } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import type { SessionUser } from "../lib/session.ts";
import { toastError } from "../lib/toast.ts";
import { ticketFor } from "../contacts/open_ticket.ts";

/** What a card's button needs: who opens the ticket, and through which connection. */
export interface CardChat {
  user: SessionUser;
  whatsappId: number | null;
}

interface Lookup {
  contact: { id: number; name: string; number: string } | null;
  invalido: boolean;
}

/** Lookups of this page by number: a card seen again (another message, the chat reopened) asks once. */
const lookups = new Map<string, Promise<Lookup>>();

function lookUp(number: string, whatsappId: number | null): Promise<Lookup> {
  let found = lookups.get(number);
  if (!found) {
    found = get<Lookup>("/contacts/lookup" + query({ number, whatsappId: whatsappId ?? undefined }));
    found.catch(() => lookups.delete(number));
    lookups.set(number, found);
  }
  return found;
}

/** Opens `uuid` in the tickets screen without reloading it (TicketsPage follows popstate). */
function openInPage(uuid: string): void {
  history.pushState(null, "", `/tickets/${uuid}`);
  dispatchEvent(new PopStateEvent("popstate"));
}

/** The card of `body` with its lookup and chat button. */
export function ContactCard({ body, chat }: { body: string; chat?: CardChat }) {
  const card = readVcard(body);
  const complete = card.name !== "" && card.number !== "";
  const [lookup, setLookup] = useState<Lookup | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!complete || !chat) return;
    let live = true;
    lookUp(card.number, chat.whatsappId).then((r) => live && setLookup(r), () => {});
    return () => {
      live = false;
    };
  }, [card.number, complete, !!chat]);

  async function talk() {
    if (!chat || !lookup) return;
    setBusy(true);
    try {
      let contactId = lookup.contact?.id;
      if (contactId === undefined) {
        const saved = await api<{ id?: number; invalido?: boolean; existingContact?: { id: number } | null }>(
          "POST",
          "/contacts?onDuplicate=report",
          { name: card.name, number: card.number },
        );
        if (saved.invalido) {
          const next = { contact: null, invalido: true };
          lookups.set(card.number, Promise.resolve(next));
          return setLookup(next);
        }
        contactId = saved.existingContact?.id ?? saved.id;
      }
      if (contactId !== undefined) openInPage(await ticketFor(chat.user, contactId, chat.whatsappId));
    } catch (error) {
      toastError((error as { body?: unknown }).body ?? error);
    } finally {
      setBusy(false);
    }
  }

  const status = !complete
    ? t("inbox.vcard.incomplete")
    : lookup?.invalido
    ? t("inbox.vcard.notOnWhatsapp")
    : chat && !lookup
    ? t("inbox.vcard.checking")
    : null;
  return (
    <div className="media-contact" data-testid="contact-card">
      <div className="media-contact-info">
        <UserRound size={28} aria-hidden="true" />
        <span><strong>{card.name || t("messages.contactCard")}</strong><br />{card.number}</span>
      </div>
      {status && <small className="muted" data-testid="contact-card-status">{status}</small>}
      {chat && (
        <button type="button" className="btn btn-small" disabled={!complete || !lookup || lookup.invalido || busy} onClick={talk} data-testid="contact-card-chat">
          <MessageSquare size={14} aria-hidden="true" /> {t("inbox.vcard.chat")}
        </button>
      )}
    </div>
  );
}
