/**
 * The simulated phone's chat list: every customer who talked with the company's number (newest
 * first), then the people of the phone's address book; a search by name or number, and "Nova
 * conversa" to write as a new customer. Each chat is a button; the open one is marked.
 */
import { useState } from "react";
import { MessageSquarePlus } from "lucide-react";
import { foldText } from "../../domain/contact.ts";
import { formatPhone } from "../../domain/phone_mask.ts";
import { listTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { EmptyState, ErrorState, Skeleton } from "../ui/States.tsx";
import type { PhoneChat } from "./types.ts";

/** Props of PhoneChats. */
export interface PhoneChatsProps {
  chats: PhoneChat[] | null;
  failed: boolean;
  current: string | null;
  onOpen: (chat: { number: string; name: string }) => void;
  onNew: () => void;
  onRetry: () => void;
}

/** The initial of a name for the avatar ("?" when none). */
export function initialOf(name: string): string {
  return (name.trim()[0] ?? "?").toUpperCase();
}

/** The list; see the module doc. */
export function PhoneChats({ chats, failed, current, onOpen, onNew, onRetry }: PhoneChatsProps) {
  const [search, setSearch] = useState("");
  const wanted = foldText(search.trim());
  const digits = search.replace(/\D/g, "");
  const shown = (chats ?? []).filter((c) =>
    !wanted || foldText(c.name).includes(wanted) || (digits !== "" && c.number.includes(digits))
  );
  return (
    <aside className="phone-chats" aria-label={t("simulator.chats")}>
      <header className="phone-chats-header">
        <h2>{t("simulator.chats")}</h2>
        <button type="button" className="icon-btn" aria-label={t("simulator.newChat")} title={t("simulator.newChat")} onClick={onNew} data-testid="phone-new-chat-open">
          <MessageSquarePlus size={20} aria-hidden="true" />
        </button>
      </header>
      <input
        className="input phone-chats-search"
        type="search"
        value={search}
        placeholder={t("simulator.searchChats")}
        aria-label={t("simulator.searchChats")}
        onChange={(e) => setSearch(e.target.value)}
      />
      {failed ? <ErrorState onRetry={onRetry} /> : chats === null ? <Skeleton rows={6} /> : shown.length === 0 ? <EmptyState text={t("simulator.noChats")} /> : (
        <ul className="phone-chat-list">
          {shown.map((c) => (
            <li key={c.number}>
              <button
                type="button"
                className="phone-chat-item"
                aria-current={c.number === current ? "true" : undefined}
                onClick={() => onOpen(c)}
                data-testid="phone-chat"
              >
                <span className="phone-avatar" aria-hidden="true">{initialOf(c.name || c.number)}</span>
                <span className="phone-chat-text">
                  <strong>{c.name || formatPhone(c.number)}</strong>
                  <small>{c.lastMessage || formatPhone(c.number)}</small>
                </span>
                <span className="phone-chat-side">
                  {c.lastAt && <time dateTime={c.lastAt}>{listTime(c.lastAt)}</time>}
                  {c.unread > 0 && <span className="badge" aria-label={t("simulator.unread", { count: c.unread })}>{c.unread}</span>}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
