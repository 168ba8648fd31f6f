/**
 * The conversation: day separators, bubbles, older pages when scrolled within 50 px of the
 * top (keeping the reading position), and it follows new messages only while the reader is
 * at the bottom (nothing jumps while someone reads).
 */
import { useLayoutEffect, useRef } from "react";
import { formatDate } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { EmptyState, ErrorState, Skeleton } from "../ui/States.tsx";
import { MessageBubble, type MessageBubbleProps } from "./MessageBubble.tsx";
import type { Messages } from "./use_messages.ts";

/** Props of MessagesList. */
export interface MessagesListProps extends Omit<MessageBubbleProps, "message"> {
  data: Messages;
}

/** The scrollable message list. */
export function MessagesList({ data, ...bubble }: MessagesListProps) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const restore = useRef<number | null>(null);
  const loading = useRef(false);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (restore.current !== null) {
      el.scrollTop = el.scrollHeight - restore.current;
      restore.current = null;
    } else if (atBottom.current) el.scrollTop = el.scrollHeight;
  }, [data.messages]);

  async function onScroll() {
    const el = box.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < 50 && data.hasMore && !loading.current) {
      loading.current = true;
      restore.current = el.scrollHeight - el.scrollTop;
      const ok = await data.loadOlder();
      if (!ok) restore.current = null;
      loading.current = false;
    }
  }

  let lastDay = "";
  const today = formatDate(Date.now());
  return (
    <div className="messages" ref={box} onScroll={onScroll} role="log" aria-live="polite" data-testid="messages">
      {data.status === "loading" && <Skeleton rows={5} />}
      {data.status === "error" && <ErrorState onRetry={data.reload} />}
      {data.status === "ready" && data.messages.length === 0 && <EmptyState text={t("messages.emptyChat")} />}
      {data.messages.map((message) => {
        const day = formatDate(message.createdAt);
        const separator = day !== lastDay;
        lastDay = day;
        return (
          <div key={message.id}>
            {separator && <div className="day-separator"><span>{day === today ? t("messages.today") : day}</span></div>}
            <MessageBubble message={message} {...bubble} />
          </div>
        );
      })}
    </div>
  );
}
