/**
 * The menu's unread badge of the internal chat (spec 002 §2.8): the viewer's unread messages
 * over all its chats (GET /chats `unreads`), read again 500 ms after the last chat event that
 * reaches the viewer (spec 000 §9: chat list reload debounce). The server sends chat events to
 * members only, so only the viewer's own chats move it. The figure is the page's
 * `chatUnreadsAtom` (unread.ts).
 */
import { useEffect } from "react";
import { useSetAtom } from "jotai";
import { useHydratedAtomValue } from "../lib/page_store.ts";
import { chatUnreadsAtom } from "./unread.ts";
import { get } from "../lib/api.ts";
import { planHas, type SessionUser } from "../lib/session.ts";
import { channelName, onChannel } from "../lib/socket.ts";

/** Debounce of the re-read after chat events. */
const DEBOUNCE_MS = 500;

/** The viewer's unread chat messages (0 without the plan's useInternalChat). */
export function useChatUnreads(user: SessionUser | null): number {
  const unreads = useHydratedAtomValue(chatUnreadsAtom, 0);
  const setUnreads = useSetAtom(chatUnreadsAtom);
  const enabled = user !== null && planHas(user, "useInternalChat");
  useEffect(() => {
    if (!user || !enabled) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      get<{ unreads?: number }>("/chats/?pageNumber=1").then((r) => live && setUnreads(r.unreads ?? 0), () => {});
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(read, DEBOUNCE_MS);
    };
    read();
    const offs = [
      onChannel(channelName(user.companyId, "chat"), later),
      onChannel(channelName(user.companyId, `chat-user-${user.id}`), later),
      onChannel("resync", later),
    ];
    return () => {
      live = false;
      clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [user?.id, enabled]);
  return enabled ? unreads : 0;
}
