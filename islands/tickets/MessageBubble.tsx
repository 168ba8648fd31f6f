/**
 * One message (shared/UI.md "Conversation"): left for the customer, right for the agent;
 * time and ack icon (0 clock, 1–2 single/double grey, 3 delivered, 4–5 blue); quoted message;
 * media inline (image, audio player, video, document, location, contact card with its
 * "Conversar" button: ContactCard.tsx); a text's first link with its preview card
 * (LinkPreview.tsx); deleted and
 * edited marks; an options menu (reply, edit — within WhatsApp's 15-minute window — delete,
 * forward).
 */
import { memo } from "react";
import { DropdownMenu } from "radix-ui";
import { Check, CheckCheck, ChevronDown, Clock, Download, FileText, MapPin, Phone, TriangleAlert } from "lucide-react";
import { editWindowOpen, locationHref } from "../../domain/message.ts";
import { firstLink, plainText } from "../../domain/whatsapp_format.ts";
import { formatTime } from "../lib/format.ts";
import { hasText, t } from "../lib/i18n.ts";
import { type CardChat, ContactCard } from "./ContactCard.tsx";
import { LinkPreview } from "./LinkPreview.tsx";
import type { Message } from "./types.ts";
import { WhatsappText } from "./WhatsappText.tsx";

/** Props of MessageBubble. */
export interface MessageBubbleProps {
  message: Message;
  readOnly: boolean;
  onAction: (action: "reply" | "edit" | "delete" | "forward", message: Message) => void;
  /** The conversation's user and connection: contact cards get their "Conversar" button. */
  chat?: CardChat;
}

/** The ack icon of an outgoing message; a failed one says why (its error code's text, e.g. the Cloud API's closed window). */
export function AckIcon({ ack, failed }: { ack: number; failed?: string | null }) {
  if (failed) {
    const key = `backendErrors.${failed}`;
    const why = hasText(key) ? t(key) : t("backendErrors.ERR_SENDING_WAPP_MSG");
    return <TriangleAlert size={14} className="ack ack-failed" aria-label={why}><title>{why}</title></TriangleAlert>;
  }
  if (ack === 0) return <Clock size={14} className="ack" aria-label={t("messages.ack0")} />;
  if (ack === 1) return <Check size={14} className="ack" aria-label={t("messages.ack1")} />;
  if (ack <= 3) return <CheckCheck size={14} className="ack" aria-label={t(ack === 3 ? "messages.ack3" : "messages.ack1")} />;
  return <CheckCheck size={14} className="ack ack-read" aria-label={t("messages.ack4")} />;
}

/** A message's media inline (also the simulated phone's, islands/simulator/PhoneBubble.tsx). */
export function MessageMedia({ message, chat }: { message: Message; chat?: CardChat }) {
  const url = message.mediaUrl ?? "";
  switch (message.mediaType) {
    case "image":
    case "sticker":
      return url ? <a href={url} target="_blank" rel="noreferrer"><img className="media-image" src={url} alt={message.mediaName ?? ""} loading="lazy" /></a> : null;
    case "audio":
      return url ? <audio className="media-audio" src={url} controls preload="none" /> : null;
    case "video":
      return url ? <video className="media-video" src={url} controls preload="metadata" /> : null;
    case "application":
    case "document":
      return url
        ? (
          <a className="media-doc" href={url} download={message.mediaName ?? true} target="_blank" rel="noreferrer">
            <FileText size={28} aria-hidden="true" />
            <span>{message.mediaName ?? t("messages.download")}</span>
            <Download size={16} aria-label={t("messages.download")} />
          </a>
        )
        : null;
    case "locationMessage": {
      // The sender wrote the body: only an http(s) map link becomes an href (domain/message.ts).
      const href = locationHref(message.body);
      return href
        ? (
          <a className="media-doc" href={href} target="_blank" rel="noreferrer">
            <MapPin size={24} aria-hidden="true" /> <span>{t("messages.openMap")}</span>
          </a>
        )
        : (
          <div className="media-doc" data-testid="location-text">
            <MapPin size={24} aria-hidden="true" /> <span>{t("messages.location")}: {message.body}</span>
          </div>
        );
    }
    case "contactMessage":
    case "contactsArrayMessage":
    case "vcard":
      return <ContactCard body={message.body} chat={chat} />;
    case "call_log":
      return <div className="media-doc"><Phone size={18} aria-hidden="true" /> {t("messages.call")}</div>;
    default:
      return null;
  }
}

/** Media types whose body is the media itself (a map link, a vCard): not shown as text too. */
export const SILENT_BODY: ReadonlySet<string> = new Set(["locationMessage", "contactMessage", "contactsArrayMessage", "vcard", "call_log"]);

function MessageBubbleImpl({ message, readOnly, onAction, chat }: MessageBubbleProps) {
  const showBody = !SILENT_BODY.has(message.mediaType) && message.body && message.body !== message.mediaName;
  const link = message.mediaType === "chat" && !message.isDeleted ? firstLink(message.body) : null;
  return (
    <div className={`bubble-row ${message.fromMe ? "out" : "in"}`} data-message-id={message.id}>
      <div className={`bubble ${message.isDeleted ? "deleted" : ""}`}>
        {message.participant && !message.fromMe && <div className="bubble-author">{message.participant.name || message.participant.number}</div>}
        {!readOnly && !message.isDeleted && (
          <DropdownMenu.Root>
            <DropdownMenu.Trigger className="bubble-menu" aria-label={t("messages.options")}>
              <ChevronDown size={16} />
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content className="menu-popup" align="end">
                <DropdownMenu.Item className="menu-popup-item" onSelect={() => onAction("reply", message)}>{t("messages.reply")}</DropdownMenu.Item>
                {message.fromMe && message.mediaType === "chat" &&
                  (!message.providerId || editWindowOpen(Date.parse(message.createdAt), Date.now())) && (
                  <DropdownMenu.Item className="menu-popup-item" onSelect={() => onAction("edit", message)}>{t("messages.edit")}</DropdownMenu.Item>
                )}
                <DropdownMenu.Item className="menu-popup-item" onSelect={() => onAction("forward", message)}>{t("messages.forward")}</DropdownMenu.Item>
                {message.fromMe && (
                  <DropdownMenu.Item className="menu-popup-item" onSelect={() => onAction("delete", message)}>{t("common.delete")}</DropdownMenu.Item>
                )}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        )}
        {message.quotedMsg && (
          <div className={`quoted ${message.quotedMsg.fromMe ? "quoted-out" : ""}`}>
            <strong>{message.quotedMsg.fromMe ? t("messages.you") : message.contact?.name}</strong>
            <span>{plainText(message.quotedMsg.body)}</span>
          </div>
        )}
        {message.isDeleted
          ? <em className="muted">{t("messages.deleted")}</em>
          : (
            <>
              <MessageMedia message={message} chat={chat} />
              {showBody && <div className="bubble-text"><WhatsappText text={message.body} /></div>}
              {link && <LinkPreview url={link} />}
            </>
          )}
        <div className="bubble-meta">
          {message.isEdited && !message.isDeleted && <span>{t("messages.edited")}</span>}
          <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
          {message.fromMe && <AckIcon ack={message.ack} failed={message.failed?.code} />}
        </div>
      </div>
    </div>
  );
}

/** A memoized bubble: a new message re-renders only itself. */
export const MessageBubble = memo(MessageBubbleImpl);
