/**
 * The open chat's messages: page 1 first (from the server's HTML when it rendered this
 * chat), older pages on demand, new ones live from `company-{id}-chat-{chatId}` (spec 002
 * §7). Pages overlap when messages arrived in between; mergeMessages keeps each once.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { get } from "../lib/api.ts";
import { channelName, onChannel } from "../lib/socket.ts";
import { type ChatMessagePage, type ChatMessageView, mergeMessages } from "./types.ts";

/** State and actions of one chat's message list. */
export interface ChatMessages {
  messages: ChatMessageView[];
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
  /** Loads the next older page (no-op while one loads or none is left). */
  loadOlder: () => void;
  /** Adds a message (the composer's own, before its event arrives). */
  add: (message: ChatMessageView) => void;
  reload: () => void;
}

/** Messages of chat `chatId` (null: none open); `initial` is page 1 when the server read it. */
export function useChatMessages(
  companyId: number,
  chatId: number | null,
  initial: ChatMessagePage | null,
  onIncoming: (message: ChatMessageView) => void,
): ChatMessages {
  const [messages, setMessages] = useState<ChatMessageView[]>(initial?.records ?? []);
  const [hasMore, setHasMore] = useState(initial?.hasMore ?? false);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const page = useRef(initial ? 1 : 0);
  const busy = useRef(false);
  const used = useRef(initial);
  const incoming = useRef(onIncoming);
  incoming.current = onIncoming;

  const fetchPage = useCallback(async (id: number, pageNumber: number) => {
    busy.current = true;
    setLoading(true);
    try {
      const r = await get<ChatMessagePage>(`/chats/${id}/messages?pageNumber=${pageNumber}`);
      page.current = pageNumber;
      setMessages((old) => (pageNumber === 1 ? mergeMessages(r.records, []) : mergeMessages(r.records, old)));
      setHasMore(r.hasMore);
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      busy.current = false;
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (chatId === null) {
      setMessages([]);
      setHasMore(false);
      return;
    }
    // The server's page 1 is used once, for the chat it was rendered with.
    const first = used.current;
    used.current = null;
    if (first && first.records.every((m) => m.chatId === chatId)) {
      setMessages(first.records);
      setHasMore(first.hasMore);
      page.current = 1;
    } else {
      setMessages([]);
      setHasMore(false);
      page.current = 0;
      fetchPage(chatId, 1);
    }
    const off = onChannel(channelName(companyId, `chat-${chatId}`), (data) => {
      const event = data as { action?: string; newMessage?: ChatMessageView };
      if (event.action !== "new-message" || !event.newMessage || event.newMessage.chatId !== chatId) return;
      setMessages((old) => mergeMessages(old, [event.newMessage!]));
      incoming.current(event.newMessage);
    });
    const offResync = onChannel("resync", () => fetchPage(chatId, 1));
    return () => {
      off();
      offResync();
    };
  }, [companyId, chatId]);

  const loadOlder = useCallback(() => {
    if (chatId === null || busy.current || !hasMore) return;
    fetchPage(chatId, page.current + 1);
  }, [chatId, hasMore]);

  const add = useCallback((message: ChatMessageView) => setMessages((old) => mergeMessages(old, [message])), []);
  const reload = useCallback(() => chatId !== null && fetchPage(chatId, 1), [chatId]);

  return { messages, hasMore, loading, failed, loadOlder, add, reload };
}
