/**
 * One message on the simulated phone, as WhatsApp shows it to the customer: the customer's
 * own on the right, the company's on the left; WhatsApp's formatting rendered (*bold*,
 * _italic_, ~strike~, ```mono```, quotes, lists), media inline (the inbox's own renderer:
 * photo, audio, video, document, location, contact card), deleted and edited marks, the time
 * and the ticks (the customer's: delivered, blue once the company read it; the company's: the
 * receipt this phone gave). A bot menu gets its options as buttons (a list message behind
 * 'Ver opções'); tapping one answers with its number, as typing it would.
 */
import { memo, useState } from "react";
import { List } from "lucide-react";
import { formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { AckIcon, MessageMedia, SILENT_BODY } from "../tickets/MessageBubble.tsx";
import { WhatsappText } from "../tickets/WhatsappText.tsx";
import type { MenuOption, PhoneMessage } from "./types.ts";

/** Props of PhoneBubble. */
export interface PhoneBubbleProps {
  message: PhoneMessage;
  /** Offers the message's menu as buttons (only the latest menu of the chat is live). */
  menuLive: boolean;
  onPick: (option: MenuOption) => void;
}

function Menu({ menu, onPick }: { menu: NonNullable<PhoneMessage["menu"]>; onPick: (option: MenuOption) => void }) {
  const [open, setOpen] = useState(menu.button === null);
  return (
    <div className="phone-menu">
      {menu.button !== null && (
        <button type="button" className="phone-menu-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          <List size={16} aria-hidden="true" /> {menu.button || t("simulator.options")}
        </button>
      )}
      {open && (
        <ul className="phone-menu-options" aria-label={t("simulator.menu")}>
          {menu.options.map((o) => (
            <li key={o.id}>
              <button type="button" className="phone-menu-option" onClick={() => onPick(o)} data-testid="phone-menu-option">
                <span>{o.title}</span>
                {o.description && <small>{o.description}</small>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function PhoneBubbleImpl({ message, menuLive, onPick }: PhoneBubbleProps) {
  const showBody = !SILENT_BODY.has(message.mediaType) && message.body && message.body !== message.mediaName;
  return (
    <div className={`bubble-row ${message.mine ? "out" : "in"}`} data-message-id={message.id} data-testid="phone-message">
      <div className={`bubble ${message.isDeleted ? "deleted" : ""}`}>
        {message.isDeleted ? <em className="muted">{t("messages.deleted")}</em> : (
          <>
            <MessageMedia message={message} />
            {showBody && <div className="bubble-text"><WhatsappText text={message.body} /></div>}
          </>
        )}
        <div className="bubble-meta">
          {message.isEdited && !message.isDeleted && <span>{t("messages.edited")}</span>}
          <time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time>
          <AckIcon ack={message.ack} />
        </div>
        {menuLive && message.menu && !message.isDeleted && <Menu menu={message.menu} onPick={onPick} />}
      </div>
    </div>
  );
}

/** A memoized bubble: a new message re-renders only itself. */
export const PhoneBubble = memo(PhoneBubbleImpl);
