/**
 * The message pane (spec 002 §2.8, §5, §9): the chat's title with the owner's edit and delete,
 * the messages (own ones on the right), earlier pages loaded once the reader scrolls within
 * 600 px of the top (the scroll position is kept), and the composer: Enter sends, Shift+Enter
 * starts a new line, a blank message is never sent.
 */
import { Fragment, useEffect, useLayoutEffect, useRef, useState } from "react";
import { ArrowLeft, Pencil, SendHorizontal, Trash2 } from "lucide-react";
import { formatDate, formatTime } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { IconButton } from "../ui/AdminPage.tsx";
import { EmptyState, ErrorState } from "../ui/States.tsx";
import type { ChatMessageView, ChatView } from "./types.ts";
import type { ChatMessages } from "./use_chat_messages.ts";

/** Distance from the top under which earlier messages load (spec 002 §9). */
export const OLDER_WITHIN_PX = 600;

/** Props of ChatPane. */
export interface ChatPaneProps {
  chat: ChatView;
  viewerId: number;
  list: ChatMessages;
  onSend: (text: string) => Promise<boolean>;
  onEdit: () => void;
  onDelete: () => void;
  onBack: () => void;
}

/** The open chat. */
export function ChatPane({ chat, viewerId, list, onSend, onEdit, onDelete, onBack }: ChatPaneProps) {
  const owner = chat.ownerId === viewerId;
  const names = chat.users.filter((u) => u.userId !== viewerId).map((u) => u.user.name).join(", ");
  return (
    <div className="chat-main" data-testid="chat-pane">
      <header className="chat-header">
        <span className="narrow-only">
          <IconButton label={t("chats.back")} onClick={onBack}><ArrowLeft size={18} /></IconButton>
        </span>
        <div className="chat-title-text chat-room-title">
          <strong data-testid="chat-title">{chat.title}</strong>
          <small className="muted">{names}</small>
        </div>
        {owner && (
          <div className="chat-actions">
            <IconButton label={t("chats.edit")} onClick={onEdit}><Pencil size={18} /></IconButton>
            <IconButton label={t("chats.delete")} onClick={onDelete} danger><Trash2 size={18} /></IconButton>
          </div>
        )}
      </header>
      <MessageList chatId={chat.id} viewerId={viewerId} list={list} />
      <Composer key={chat.id} onSend={onSend} />
    </div>
  );
}

/** The scrolling messages with day separators. */
function MessageList({ chatId, viewerId, list }: { chatId: number; viewerId: number; list: ChatMessages }) {
  const box = useRef<HTMLDivElement>(null);
  const first = list.messages[0]?.id;
  const last = list.messages.at(-1)?.id;
  const seen = useRef<{ chatId: number; first?: number; last?: number; height: number }>({ chatId, height: 0 });

  // Keeps the reader where it was when earlier messages are put above; follows new ones at the
  // bottom when the reader is there (or when it is the viewer's own message).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const before = seen.current;
    const mine = list.messages.at(-1)?.senderId === viewerId;
    if (before.chatId !== chatId || before.last === undefined) el.scrollTop = el.scrollHeight;
    else if (first !== before.first && last === before.last) el.scrollTop += el.scrollHeight - before.height;
    else if (last !== before.last) {
      const nearBottom = before.height - el.scrollTop - el.clientHeight < 120;
      if (nearBottom || mine) el.scrollTop = el.scrollHeight;
    }
    seen.current = { chatId, first, last, height: el.scrollHeight };
  }, [chatId, first, last]);

  // A short page does not scroll at all: keep loading while the top is within reach.
  useEffect(() => {
    const el = box.current;
    if (el && list.hasMore && !list.loading && el.scrollTop < OLDER_WITHIN_PX) list.loadOlder();
  }, [list.hasMore, list.loading, first]);

  let day = "";
  return (
    <div
      className="messages chat-messages"
      ref={box}
      onScroll={(e) => e.currentTarget.scrollTop < OLDER_WITHIN_PX && list.loadOlder()}
      data-testid="chat-messages"
      aria-live="polite"
    >
      {list.loading && list.hasMore && <p className="chat-older muted" role="status">{t("chats.loadingOlder")}</p>}
      {list.failed && list.messages.length === 0 && <ErrorState onRetry={list.reload} />}
      {!list.loading && !list.failed && list.messages.length === 0 && <EmptyState text={t("chats.noMessages")} />}
      {list.messages.map((m) => {
        const date = formatDate(m.createdAt);
        const separator = date !== day;
        day = date;
        return (
          <Fragment key={m.id}>
            {separator && <div className="day-separator"><span>{date}</span></div>}
            <Bubble message={m} mine={m.senderId === viewerId} />
          </Fragment>
        );
      })}
    </div>
  );
}

function Bubble({ message, mine }: { message: ChatMessageView; mine: boolean }) {
  return (
    <div className={mine ? "bubble-row out" : "bubble-row"} data-testid="chat-message">
      <div className="bubble">
        {!mine && <div className="bubble-author">{message.sender.name}</div>}
        <div className="bubble-text">{message.message}</div>
        <div className="bubble-meta"><time dateTime={message.createdAt}>{formatTime(message.createdAt)}</time></div>
      </div>
    </div>
  );
}

/** The text box and its send button. */
function Composer({ onSend }: { onSend: (text: string) => Promise<boolean> }) {
  const [text, setText] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);
  const blank = text.trim() === "";
  // The box grows with Shift+Enter's lines up to the composer's cap (CSS max-height), then scrolls.
  useLayoutEffect(() => {
    const el = input.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${el.scrollHeight + el.offsetHeight - el.clientHeight}px`;
  }, [text]);
  const send = async () => {
    if (blank) return;
    const sent = text;
    setText("");
    // Spec 002 §8: chat failures are silent; the text comes back so nothing typed is lost.
    if (!(await onSend(sent))) setText((now) => (now === "" ? sent : now));
    input.current?.focus();
  };
  return (
    <form className="composer" onSubmit={(e) => (e.preventDefault(), send())}>
      <div className="composer-row">
        <textarea
          ref={input}
          className="composer-text"
          rows={1}
          value={text}
          placeholder={t("chats.placeholder")}
          aria-label={t("chats.placeholder")}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          data-testid="chat-input"
        />
        <button type="submit" className="icon-btn send" aria-label={t("chats.send")} title={t("chats.send")} disabled={blank} data-testid="chat-send">
          <SendHorizontal size={20} />
        </button>
      </div>
    </form>
  );
}
