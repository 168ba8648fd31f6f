/**
 * WhatsApp groups made from the product (spec 000 §5 new-group dialog, §6 group users, §7
 * `/creatGroupAndTicket` and `/groupUsers`): the bodies and queries of those calls.
 */
import { z } from "zod";
import { TicketStatus } from "./ticket.ts";
import { Id, OptionalId, sized } from "./text.ts";

/** The new-group dialog's texts (spec 000 §5). */
export const GROUP_MSG = {
  queue: "Selecione uma fila!",
  connection: "Selecione uma conexão!",
  contacts: "Selecione pelo menos um contato",
} as const;

/** WhatsApp's limit on a group's size (participants added at once). */
export const MAX_GROUP_PARTICIPANTS = 256;

/** A required id whose absence ("", 0, null, missing) is reported with `message`. */
function requiredId(message: string) {
  return z.preprocess(
    (v) => (v === "" || v === 0 || v === "0" || v === null ? undefined : v),
    z.coerce.number({ error: message }).int(message).positive(message),
  );
}

/** A non-empty list of contact ids, reported with the dialog's text when empty. */
const ContactIds = z.array(Id, { error: GROUP_MSG.contacts })
  .min(1, GROUP_MSG.contacts)
  .max(MAX_GROUP_PARTICIPANTS);

/** POST /creatGroupAndTicket body. */
export const GroupCreate = z.object({
  contactsAddGroup: ContactIds,
  /** WhatsApp caps a group's subject at 100 characters. */
  titleGroup: sized(1, 100),
  queueId: requiredId(GROUP_MSG.queue),
  whatsappId: requiredId(GROUP_MSG.connection),
  /** Who the ticket is assigned to; none: the caller. */
  userId: OptionalId.optional(),
  status: TicketStatus.exclude(["closed"]).default("open"),
});
export type GroupCreate = z.infer<typeof GroupCreate>;

/** GET /groupUsers query: `groupId` is the group ticket's id. */
export const GroupUsersQuery = z.object({ groupId: Id });
export type GroupUsersQuery = z.infer<typeof GroupUsersQuery>;

/** POST /groupUsers body: the group ticket's id and the contact ids to add. */
export const GroupUsersAdd = z.object({ groupId: Id, users: ContactIds });
export type GroupUsersAdd = z.infer<typeof GroupUsersAdd>;
