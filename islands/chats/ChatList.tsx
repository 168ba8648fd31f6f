/** The chat list pane (spec 002 §2.8): the new-chat button, then the viewer's chats with their unread badges. */
import { MessageCirclePlus } from "lucide-react";
import { unreadsOf } from "../../domain/chat.ts";
import { badgeCount, listTime, messagePreview } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { EmptyState, ErrorState, Skeleton } from "../ui/States.tsx";
import type { ChatView } from "./types.ts";

/** Props of ChatList. */
export interface ChatListProps {
  chats: ChatView[] | null;
  failed: boolean;
  viewerId: number;
  currentId: number | null;
  onSelect: (chat: ChatView) => void;
  onNew: () => void;
  onRetry: () => void;
  /** Called when the list is scrolled within 100 px of its bottom (spec 002 §9). */
  onNearEnd: () => void;
}

/** The list of chats. */
export function ChatList({ chats, failed, viewerId, currentId, onSelect, onNew, onRetry, onNearEnd }: ChatListProps) {
  return (
    <div className="chat-list-pane">
      <div className="chat-list-toolbar">
        <h1 className="chat-list-title">{t("chats.title")}</h1>
        <button type="button" className="btn btn-primary" onClick={onNew} data-testid="chat-new">
          <MessageCirclePlus size={16} aria-hidden="true" /> {t("chats.new")}
        </button>
      </div>
      <div
        className="chat-list"
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.scrollHeight - el.scrollTop - el.clientHeight < 100) onNearEnd();
        }}
      >
        {failed && !chats ? <ErrorState onRetry={onRetry} /> : !chats ? <Skeleton rows={5} /> : chats.length === 0 ? <EmptyState text={t("chats.empty")} /> : (
          <ul className="chat-rows" data-testid="chat-list">
            {chats.map((chat) => {
              const unread = unreadsOf(chat, viewerId);
              return (
                <li key={chat.id}>
                  <button
                    type="button"
                    className="chat-row"
                    aria-current={chat.id === currentId ? "true" : undefined}
                    onClick={() => onSelect(chat)}
                    data-testid={`chat-row-${chat.id}`}
                  >
                    <span className="chat-row-line">
                      <strong className="chat-row-title">{chat.title}</strong>
                      <time className="chat-row-time" dateTime={chat.updatedAt}>{listTime(chat.updatedAt)}</time>
                    </span>
                    <span className="chat-row-line">
                      <span className="chat-row-preview">{chat.lastMessage ? messagePreview(chat.lastMessage) : t("chats.members", { count: chat.users.length })}</span>
                      {unread > 0 && (
                        <span className="badge badge-inline" aria-label={t("chats.unread", { count: unread })} data-testid="chat-unread">
                          {badgeCount(unread)}
                        </span>
                      )}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
