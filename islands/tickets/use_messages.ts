/**
 * The messages of one ticket: page 1 (newest) from GET /messages/{id} (or /messages-ghost for
 * a supervisor's spy view), older pages on demand, live creates and updates from
 * `company-{id}-appMessage` after joinChatBox (an agent's media still uploading shows an info
 * toast), and a temporary copy of what the agent just sent until the server copy arrives
 * (spec 000 §4: replaced when body and ticket match).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import { channelName, onChannel, retain } from "../lib/socket.ts";
import { showToast } from "../lib/toast.ts";
import type { Message, TicketItem } from "./types.ts";

/** State and actions of a conversation's messages. */
export interface Messages {
  messages: Message[];
  status: "loading" | "ready" | "error";
  hasMore: boolean;
  loadOlder: () => Promise<boolean>;
  /** Loads older pages until message `id` is among the messages (false: it is not in this conversation). */
  reveal: (id: string) => Promise<boolean>;
  reload: () => void;
  upsert: (message: Message) => void;
  /** Removes a message (the temporary copy of a sent one) by id. */
  drop: (id: string) => void;
}

/**
 * Whether a new message is media the company is still sending (spec 000 §4 "Live events": a
 * media-processing notice shows as info): an agent's file stored and waiting for the
 * connection to upload it (ack 0), which for a large video takes a while with only a clock on
 * the bubble.
 */
function processingMedia(message: Message): boolean {
  return message.fromMe && message.ack === 0 && !message.failed && message.mediaType !== "chat" && message.mediaUrl !== null && message.mediaUrl !== "";
}

function sortById(list: Message[]): Message[] {
  return list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Loads and follows the messages of `ticketId`. */
export function useMessages(companyId: number, ticketId: number | null, ghost: boolean, onTicket: (t: TicketItem) => void): Messages {
  const [messages, setMessages] = useState<Message[]>([]);
  const [status, setStatus] = useState<Messages["status"]>("loading");
  const [hasMore, setHasMore] = useState(false);
  const page = useRef(1);
  // Refs, so older pages can be asked one after another within one call (reveal) and a
  // scroll and a search asking at once share one request.
  const hasMoreRef = useRef(false);
  hasMoreRef.current = hasMore;
  const loaded = useRef(new Set<string>());
  loaded.current = new Set(messages.map((m) => m.id));
  const olderInFlight = useRef<Promise<boolean> | null>(null);

  const onTicketRef = useRef(onTicket);
  onTicketRef.current = onTicket;

  const upsert = useCallback((message: Message) => {
    setMessages((old) => {
      // A copy older than the one shown is stale: the POST's answer can arrive after the live
      // update of the same message (a send refused at once, e.g. a closed Cloud API window).
      const shown = old.find((m) => m.id === message.id);
      if (shown && Date.parse(shown.updatedAt) > Date.parse(message.updatedAt)) return old;
      // The server copy replaces the temporary one; a signed copy ends with the typed text.
      const isCopy = (m: Message) => m.id.startsWith("temp-") && m.ticketId === message.ticketId && message.fromMe && message.body.endsWith(m.body);
      const rest = old.filter((m) => m.id !== message.id && !isCopy(m));
      return sortById([...rest, message]);
    });
  }, []);

  const drop = useCallback((id: string) => setMessages((old) => old.filter((m) => m.id !== id)), []);

  const fetchPage = useCallback((n: number) =>
    get<{ messages: Message[]; hasMore: boolean; ticket?: TicketItem }>(`/${ghost ? "messages-ghost" : "messages"}/${ticketId}?pageNumber=${n}`), [ticketId, ghost]);

  const reload = useCallback(() => {
    if (!ticketId) return;
    page.current = 1;
    fetchPage(1).then((r) => {
      setMessages(sortById(r.messages));
      hasMoreRef.current = r.hasMore;
      setHasMore(r.hasMore);
      setStatus("ready");
      if (r.ticket) onTicketRef.current(r.ticket);
    }, () => setStatus("error"));
  }, [fetchPage, ticketId]);

  useEffect(() => {
    setMessages([]);
    setHasMore(false);
    hasMoreRef.current = false;
    setStatus("loading");
    if (!ticketId) return;
    reload();
    // Shared with a spy dialog on the same ticket: closing one keeps the other live.
    const release = retain(`chatBox-${ticketId}`, { type: "joinChatBox", ticketId }, { type: "leaveChatBox", ticketId });
    let readTimer: ReturnType<typeof setTimeout> | undefined;
    // A customer message in the open conversation is read: re-reading page 1 tells the server.
    const markRead = () => {
      clearTimeout(readTimer);
      readTimer = setTimeout(() => fetchPage(1).then((r) => r.messages.forEach(upsert), () => {}), 500);
    };
    const offs = [
      onChannel(channelName(companyId, "appMessage"), (data) => {
        const d = data as { action?: string; message?: Message; ticket?: TicketItem };
        if (!d.message || d.message.ticketId !== ticketId) return;
        upsert(d.message);
        if (d.action === "create" && !ghost && processingMedia(d.message)) showToast("info", t("inbox.mediaProcessing"), "media-processing");
        if (d.action === "create" && !d.message.fromMe && !ghost) markRead();
      }),
      onChannel("resync", reload),
    ];
    return () => {
      clearTimeout(readTimer);
      offs.forEach((off) => off());
      release();
    };
  }, [ticketId, ghost]);

  const loadOlder = useCallback(() => {
    if (!hasMoreRef.current || !ticketId) return Promise.resolve(false);
    olderInFlight.current ??= (async () => {
      const next = page.current + 1;
      try {
        const r = await fetchPage(next);
        page.current = next;
        hasMoreRef.current = r.hasMore;
        for (const m of r.messages) loaded.current.add(m.id);
        setHasMore(r.hasMore);
        setMessages((old) => sortById([...r.messages.filter((m) => !old.some((o) => o.id === m.id)), ...old]));
        return true;
      } catch {
        return false;
      } finally {
        olderInFlight.current = null;
      }
    })();
    return olderInFlight.current;
  }, [ticketId, fetchPage]);

  const reveal = useCallback(async (id: string) => {
    while (!loaded.current.has(id)) {
      if (!(await loadOlder())) return false;
    }
    return true;
  }, [loadOlder]);

  return { messages, status, hasMore, loadOlder, reveal, reload, upsert, drop };
}
