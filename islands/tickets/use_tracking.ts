/**
 * The tracking notes of one ticket (accepted, transferred, returned, resolved, reopened;
 * domain/ticket_tracking.ts): GET /tickets/{id}/tracking once, then the live
 * `{ action: "tracking" }` events of `company-{id}-appMessage` for this ticket, re-read after
 * a socket resync. The conversation shows them as centred grey system lines.
 */
import { useEffect, useState } from "react";
import type { TicketTracking } from "../../domain/ticket_tracking.ts";
import { get } from "../lib/api.ts";
import { channelName, onChannel } from "../lib/socket.ts";

/** A tracking note as the API returns it. */
export type TrackingNote = TicketTracking;

/** Adds `note` to `list` (once), oldest first. */
function withNote(list: TrackingNote[], note: TrackingNote): TrackingNote[] {
  if (list.some((n) => n.id === note.id)) return list;
  return [...list, note].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Loads and follows the tracking notes of `ticketId`; a failed load shows none. */
export function useTracking(companyId: number, ticketId: number): TrackingNote[] {
  const [notes, setNotes] = useState<TrackingNote[]>([]);
  useEffect(() => {
    let live = true;
    const load = () =>
      get<{ tracking: TrackingNote[] }>(`/tickets/${ticketId}/tracking`).then(
        (r) => live && setNotes((old) => r.tracking.reduce(withNote, old)),
        () => {},
      );
    setNotes([]);
    load();
    const offs = [
      onChannel(channelName(companyId, "appMessage"), (data) => {
        const d = data as { action?: string; tracking?: TrackingNote; ticket?: { id: number } };
        if (d.action === "tracking" && d.tracking && d.ticket?.id === ticketId) {
          const note = d.tracking;
          setNotes((old) => withNote(old, note));
        }
      }),
      onChannel("resync", load),
    ];
    return () => {
      live = false;
      offs.forEach((off) => off());
    };
  }, [companyId, ticketId]);
  return notes;
}
