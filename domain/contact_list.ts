/**
 * Contact lists of campaigns (issue #19; spec 002 §2.6, 001 §7 ContactList/ContactListItem
 * events). The spec shows no form for them, so the rules are the contact form's (name 2–50,
 * number 8–50 digits, optional e-mail) with its Yup-style texts. `isWhatsappValid` is null
 * until the connection checked the number, then true or false; campaigns skip only false.
 */
import { z } from "zod";
import { normalizeNumber } from "./contact.ts";
import { typedPhone } from "./phone_number.ts";
import { EmailAddress, Id, MAX, MSG, sized } from "./text.ts";

/** A contact list (the item count is computed when listed). */
export const ContactList = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ContactList = z.infer<typeof ContactList>;

/** POST /contact-lists and PUT /contact-lists/{id} body. */
export const ContactListInput = z.object({ name: sized(2, 50) });
export type ContactListInput = z.infer<typeof ContactListInput>;

/** One contact of a list. */
export const ContactListItem = z.object({
  id: z.number(),
  companyId: z.number(),
  contactListId: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string().nullable(),
  isWhatsappValid: z.boolean().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ContactListItem = z.infer<typeof ContactListItem>;

/** POST /contact-list-items and PUT /contact-list-items/{id} body. */
export const ContactListItemInput = z.object({
  contactListId: Id,
  name: sized(2, 50),
  // As typed ("+" kept when it named its country); the server reads it for the company (#41).
  number: z.string({ error: MSG.required }).max(MAX.phone, MSG.tooLong).transform(typedPhone).pipe(
    z.string().min(1, MSG.required).refine((v) => normalizeNumber(v).length >= 8, MSG.tooShort)
      .refine((v) => normalizeNumber(v).length <= 50, MSG.tooLong),
  ),
  email: z.union([z.literal(""), z.null(), EmailAddress]).default("")
    .transform((e) => (e ? e.toLowerCase() : null)),
});
export type ContactListItemInput = z.infer<typeof ContactListItemInput>;

/** GET /contact-list-items query. */
export const ContactListItemQuery = z.object({
  contactListId: Id,
  searchParam: z.string().trim().max(200).default(""),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
});
export type ContactListItemQuery = z.infer<typeof ContactListItemQuery>;

/** POST /contact-lists/{id}/add-tags body: contacts whose tickets carry any of these tags. */
export const AddFromTags = z.object({ tags: z.array(Id).min(1, MSG.required).max(MAX.list, MSG.tooLong) });
export type AddFromTags = z.infer<typeof AddFromTags>;

/**
 * POST /contact-lists/{id}/add-contacts body: existing contacts by id, at most MAX.list per
 * call (the picker sends a larger choice in several calls); a repeated id counts once.
 */
export const AddFromContacts = z.object({
  contactIds: z.array(Id).min(1, MSG.required).max(MAX.list, MSG.tooLong).transform((ids) => [...new Set(ids)]),
});
export type AddFromContacts = z.infer<typeof AddFromContacts>;

/** A new contact for a list, before it gets an id. */
export interface NewListItem {
  name: string;
  number: string;
  email: string | null;
}

/**
 * The rows of `incoming` to add to a list that already has the numbers `known`: a number
 * already there (or twice in the batch) is kept once, so imports can be repeated safely.
 */
export function newItems(known: ReadonlySet<string>, incoming: readonly NewListItem[]): NewListItem[] {
  const seen = new Set(known);
  const out: NewListItem[] = [];
  for (const row of incoming) {
    if (seen.has(row.number)) continue;
    seen.add(row.number);
    out.push(row);
  }
  return out;
}

/** Counts shown per list: all contacts, those not yet checked and those found invalid. */
export interface ListCounts {
  contactsCount: number;
  pendingCount: number;
  invalidCount: number;
}
