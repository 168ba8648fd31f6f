/**
 * The unread counts the shell follows, atoms of the page's store (lib/page_store.ts) so any
 * island of the page reads the same figures: the tickets with unread messages behind the
 * notifications bell (Bells.tsx) and the internal chat's unread messages on the menu
 * (chat_unread.ts). Each is written by the one hook that follows its live events.
 */
import { atom } from "jotai";

/** A ticket with unread messages as `GET /tickets?withUnreadMessages=true` lists it. */
export interface UnreadTicket {
  id: number;
  uuid: string;
  unreadMessages: number;
  lastMessage: string;
  contact?: { name: string };
}

/** The bell's tickets and the server's count of them. */
export interface UnreadTickets {
  tickets: UnreadTicket[];
  count: number;
}

/** Nothing unread (also what the server renders). */
export const NO_UNREAD_TICKETS: UnreadTickets = { tickets: [], count: 0 };

/** The tickets with unread messages the viewer's lists hold. */
export const unreadTicketsAtom = atom<UnreadTickets>(NO_UNREAD_TICKETS);

/** The viewer's unread internal-chat messages over all its chats. */
export const chatUnreadsAtom = atom(0);
