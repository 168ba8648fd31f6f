/**
 * The ticket desk's snapshot (actors/_runtime/record_snapshot.ts): every ticket of a company
 * packed in KV, so a start of 1,000,000 tickets reads ~3,000 values instead of listing and
 * decoding a million records (issue #23 §3).
 */
import type { Ticket } from "../../domain/ticket.ts";
import type { SnapshotArea } from "../_runtime/record_snapshot.ts";
import { companyTicketsPrefix } from "./keys.ts";

export const TICKET_SNAPSHOTS: SnapshotArea<Ticket> = {
  name: "ticket",
  recordPrefix: companyTicketsPrefix,
};
