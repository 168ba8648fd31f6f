/** Client-side shapes of the tickets screen: exactly what the API returns (type-only imports). */
import type { TicketItem as ServerTicketItem } from "../../actors/tickets/view.ts";
import type { MessageView } from "../../domain/message.ts";

/** A ticket as GET /tickets and `company-{id}-ticket` events carry it. */
export type TicketItem = ServerTicketItem;
/** A message as GET /messages/{ticketId} and `appMessage` events carry it. */
export type Message = MessageView;

/** Which list a pane shows. */
export type ListTab = "open" | "groups" | "closed" | "search";

/** The filters the manager passes to every list. */
export interface ListFilters {
  searchParam: string;
  tags: number[];
  users: number[];
  whatsappIds: number[];
  showAll: boolean;
  queueIds: number[];
  /** Newest (DESC, the spec's default) or oldest first; kept locally (SortToggle.tsx). */
  order: "DESC" | "ASC";
}

/** A queue, connection, tag or user as pickers show them (defined with the kit's loader). */
export type { Option } from "../ui/use_options.ts";
