/**
 * The simulated phone's data: the company's phones (GET /simulator), one phone's chats
 * (GET /simulator/{id}/chats) and the open chat (GET /simulator/{id}/chats/{number}). They
 * follow the company's live events: a message created or changed (`appMessage`: the bot's
 * answer, an agent's reply, an ack) refreshes the open chat when it is this customer's, and
 * the chat list; a session change (`whatsappSession`) refreshes the phones.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { get } from "../lib/api.ts";
import { channelName, onChannel } from "../lib/socket.ts";
import type { PhoneChat, PhoneInfo, PhonesResponse, PhoneThread } from "./types.ts";

/**
 * Calls `fn` `ms` after the first of a burst of calls (a burst of events refetches once, and a
 * steady stream of them still refetches every `ms`).
 */
function useCoalesced(fn: () => void, ms: number): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      latest.current();
    }, ms);
  }, [ms]);
}

/** The company's phones, refreshed on session events. */
export function usePhones(companyId: number, initial: PhonesResponse | null) {
  const [phones, setPhones] = useState<PhoneInfo[] | null>(initial?.phones ?? null);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(() => {
    get<PhonesResponse>("/simulator").then((r) => {
      setPhones(r.phones);
      setFailed(false);
    }, () => setFailed(true));
  }, []);
  useEffect(() => {
    if (!initial) reload();
  }, []);
  const soon = useCoalesced(reload, 200);
  useEffect(() => (companyId ? onChannel(channelName(companyId, "whatsappSession"), soon) : undefined), [companyId, soon]);
  return { phones, failed, reload };
}

/** The chats of phone `phoneId`, refreshed when messages come and go. */
export function useChats(companyId: number, phoneId: number | null) {
  const [chats, setChats] = useState<PhoneChat[] | null>(null);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(() => {
    if (phoneId === null) return;
    get<{ chats: PhoneChat[] }>(`/simulator/${phoneId}/chats`).then((r) => {
      setChats(r.chats);
      setFailed(false);
    }, () => setFailed(true));
  }, [phoneId]);
  useEffect(() => {
    setChats(null);
    reload();
  }, [reload]);
  const soon = useCoalesced(reload, 400);
  useEffect(() => (companyId ? onChannel(channelName(companyId, "appMessage"), soon) : undefined), [companyId, soon]);
  return { chats, failed, reload };
}

/** The chat with `number` on phone `phoneId`, refreshed when one of its messages changes. */
export function useThread(companyId: number, phoneId: number | null, number: string | null) {
  const [thread, setThread] = useState<PhoneThread | null>(null);
  const [failed, setFailed] = useState(false);
  const contactId = useRef<number | null>(null);
  const reload = useCallback(() => {
    if (phoneId === null || number === null) return;
    get<PhoneThread>(`/simulator/${phoneId}/chats/${encodeURIComponent(number)}`).then((r) => {
      contactId.current = r.messages[0]?.contactId ?? null;
      setThread(r);
      setFailed(false);
    }, () => setFailed(true));
  }, [phoneId, number]);
  useEffect(() => {
    setThread(null);
    contactId.current = null;
    reload();
  }, [reload]);
  const soon = useCoalesced(reload, 120);
  useEffect(() => {
    if (!companyId) return;
    return onChannel(channelName(companyId, "appMessage"), (data) => {
      const event = data as { message?: { contactId?: number }; contact?: { number?: string } };
      // A new customer's first message: the chat has no contact yet, its number tells.
      if (event.message?.contactId === contactId.current || event.contact?.number === number) soon();
    });
  }, [companyId, number, soon]);
  return { thread, failed, reload };
}
