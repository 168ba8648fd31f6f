/**
 * The service panel's columns (spec 000 §2) and how a live ticket event changes them: a
 * ticket sits in its user's column while open, in 'Aguardando' while pending, nowhere once
 * closed or deleted. Pure, so the rules are unit-tested without a browser.
 */
import type { TicketItem } from "../tickets/types.ts";

/** A column: its tickets, newest first (at most the server's limit), and how many in all. */
export interface PanelColumn {
  tickets: TicketItem[];
  count: number;
}

/** One user's column. */
export interface UserColumn extends PanelColumn {
  id: number;
  name: string;
  profile: string;
  online: boolean;
}

/** GET /service-panel body. */
export interface PanelData {
  users: UserColumn[];
  pending: PanelColumn;
  limit: number;
}

const newestFirst = (a: TicketItem, b: TicketItem) =>
  Date.parse(b.updatedAt ?? "") - Date.parse(a.updatedAt ?? "") || b.id - a.id;

function without<C extends PanelColumn>(column: C, id: number): C {
  const tickets = column.tickets.filter((t) => t.id !== id);
  return tickets.length === column.tickets.length ? column : { ...column, tickets, count: Math.max(0, column.count - 1) };
}

function withTicket<C extends PanelColumn>(column: C, ticket: TicketItem, limit: number): C {
  return { ...column, tickets: [ticket, ...column.tickets].sort(newestFirst).slice(0, limit), count: column.count + 1 };
}

/** The panel without ticket `id` (deleted, or about to be placed again). */
export function removeTicket(data: PanelData, id: number): PanelData {
  const users = data.users.map((u) => without(u, id));
  const pending = without(data.pending, id);
  return users.every((u, i) => u === data.users[i]) && pending === data.pending ? data : { ...data, users, pending };
}

/** The panel after `ticket` changed: out of the column it was in, into the one it belongs to. */
export function placeTicket(data: PanelData, ticket: TicketItem): PanelData {
  const next = removeTicket(data, ticket.id);
  if (ticket.status === "pending") return { ...next, pending: withTicket(next.pending, ticket, data.limit) };
  if (ticket.status === "open" && ticket.userId !== null) {
    return { ...next, users: next.users.map((u) => (u.id === ticket.userId ? withTicket(u, ticket, data.limit) : u)) };
  }
  return next;
}
