/**
 * The contacts' snapshot (actors/_runtime/record_snapshot.ts): every contact of a company
 * packed in KV, so a start of 500,000 contacts reads ~1,500 values instead of listing and
 * decoding each record (issue #23 §3).
 */
import { type Contact, residentContact, settleResidentContact } from "../../domain/contact.ts";
import type { SnapshotArea, SnapshotState } from "../_runtime/record_snapshot.ts";
import type { ContactsState } from "./state.ts";

export const CONTACT_SNAPSHOTS: SnapshotArea<Contact> = {
  name: "contact",
  recordPrefix: (companyId) => ["contact", companyId],
  fromStore: (raw) => residentContact(raw as Contact),
  fromChunk: settleResidentContact,
};

/** The actor's state: the contacts (state.ts) and its snapshot's bookkeeping. */
export type ContactsActorState = ContactsState & { snap: SnapshotState };
