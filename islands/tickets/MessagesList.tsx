/**
 * The conversation: day separators, bubbles, older pages when scrolled within 50 px of the
 * top (keeping the reading position), and it follows new messages only while the reader is
 * at the bottom (nothing jumps while someone reads). Tracking notes (transfers, accepts…) sit
 * among the messages by time as centred system lines.
 */
import { useLayoutEffect, useRef } from "react";
import { formatDate } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { EmptyState, ErrorState, Skeleton } from "../ui/States.tsx";
import { MessageBubble, type MessageBubbleProps } from "./MessageBubble.tsx";
import { SystemLine } from "./SystemLine.tsx";
import type { Message } from "./types.ts";
import type { Messages } from "./use_messages.ts";
import type { TrackingNote } from "./use_tracking.ts";

/** Props of MessagesList. */
export interface MessagesListProps extends Omit<MessageBubbleProps, "message"> {
  data: Messages;
  /** The ticket's tracking notes, oldest first. */
  notes?: TrackingNote[];
}

type Entry = { kind: "message"; at: number; message: Message } | { kind: "note"; at: number; note: TrackingNote };

/**
 * Messages and notes in time order. Notes older than the oldest loaded message wait until
 * that page is loaded (unless there is nothing older), so they never sit above a gap.
 */
function timeline(messages: Message[], notes: TrackingNote[], hasMore: boolean): Entry[] {
  const entries: Entry[] = messages.map((message) => ({ kind: "message", at: Date.parse(message.createdAt), message }));
  const oldest = entries.length > 0 ? entries[0].at : Infinity;
  for (const note of notes) {
    const at = Date.parse(note.createdAt);
    if (hasMore && at < oldest) continue;
    entries.push({ kind: "note", at, note });
  }
  // Stable: a message and a note of the same millisecond keep messages first.
  return entries.sort((a, b) => a.at - b.at);
}

/** The scrollable message list. */
export function MessagesList({ data, notes = [], ...bubble }: MessagesListProps) {
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
  }, [data.messages, notes]);

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
      {data.status === "ready" && data.messages.length === 0 && notes.length === 0 && <EmptyState text={t("messages.emptyChat")} />}
      {timeline(data.messages, data.status === "ready" ? notes : [], data.hasMore).map((entry) => {
        const day = formatDate(entry.at);
        const separator = day !== lastDay;
        lastDay = day;
        return (
          <div key={entry.kind === "message" ? entry.message.id : `note-${entry.note.id}`}>
            {separator && <div className="day-separator"><span>{day === today ? t("messages.today") : day}</span></div>}
            {entry.kind === "message" ? <MessageBubble message={entry.message} {...bubble} /> : <SystemLine note={entry.note} />}
          </div>
        );
      })}
    </div>
  );
}
