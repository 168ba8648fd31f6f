/** The shapes the contacts screen reads from GET /contacts/ (server/api/contacts.ts contactRows). */

/** A contact row: the stored contact plus its latest ticket and its wallet owner. */
export interface ContactRow {
  id: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  active: boolean;
  isGroup?: boolean;
  extraInfo: { name: string; value: string }[];
  walleteUserId: number | null;
  /** The latest ticket only (its `updatedAt` is the last interaction); absent on live events. */
  tickets?: { id: number; uuid: string; status: string; updatedAt: number | string }[];
  walleteUser?: { id: number; name: string } | null;
}

/** GET /contacts/ body. */
export interface ContactsResponse {
  contacts: ContactRow[];
  count: number;
  hasMore: boolean;
}
