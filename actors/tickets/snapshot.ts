/**
 * The ticket desk's snapshot (actors/_runtime/record_snapshot.ts): every ticket of a company
 * packed in KV, so a start of 1,000,000 tickets reads ~3,000 values instead of listing and
 * decoding a million records (issue #23 §3).
 */
import { residentTicket, settleResident, Ticket } from "../../domain/ticket.ts";
import type { SnapshotArea } from "../_runtime/record_snapshot.ts";
import { companyTicketLatestPrefix, companyTicketsPrefix } from "./keys.ts";
import { applyStoredLatest } from "./latest.ts";

export const TICKET_SNAPSHOTS: SnapshotArea<Ticket> = {
  name: "ticket",
  recordPrefix: companyTicketsPrefix,
  fromStore: reviveTicket,
  fromChunk: settleResident,
  companion: { prefix: companyTicketLatestPrefix, apply: applyStoredLatest },
};

/**
 * A stored record: the current version loads without parsing, older ones are parsed
 * (migrated); either is rebuilt in the desk's compact shape (residentTicket).
 */
export function reviveTicket(raw: unknown): Ticket {
  return residentTicket((raw as { v?: number }).v === 1 ? raw as Ticket : Ticket.parse(raw));
}
