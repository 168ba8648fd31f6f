/**
 * Bodies of the ticket calls (spec 000 §7) and the mapping of a PUT /tickets/{id} body onto
 * the commands of the ticket machine (domain/ticket.ts). The spec's client sends one PUT
 * shape for every action, so the action is read from the fields:
 * - `status: "closed"`: close a pending ticket, or resolve an open one;
 * - `return: true`, or `status: "pending"` on an open ticket without a new queue: return;
 * - a `queueId` that differs from the ticket's, or a `userId` other than the ticket's user
 *   next to a `queueId`: transfer (the transfer dialog always sends the queue);
 * - `status: "open"`: accept a pending ticket, reopen a closed one (the accept button also
 *   sends the ticket's own `queueId`, which is not a transfer);
 * - `unreadMessages`, `amountUsedBotQueues`: plain field updates.
 */
import { z } from "zod";
import { AppError } from "./errors.ts";
import type { Ticket, TicketCommand } from "./ticket.ts";
import { TicketStatus } from "./ticket.ts";
import { Flag, Id, OptionalId } from "./text.ts";
import { MAX_SCORE } from "./rating.ts";

/** The text of a transfer without a queue (spec 000 §5 "Transfer: a queue is required"). */
export const SELECT_QUEUE = "Selecione uma fila";
/** The text of a new ticket without a connection (spec 000 §5). */
export const SELECT_CONNECTION = "Selecione uma conexão";

/** PUT /tickets/{id} body (also the per-ticket part of PUT /tickets/multiUpdate). */
export const TicketUpdate = z.object({
  status: TicketStatus.optional(),
  userId: OptionalId.optional(),
  unreadMessages: z.coerce.number().int().min(0).optional(),
  return: Flag.optional(),
  /** Accepted for compatibility with the spec's client; webhooks are not sent from here. */
  webhook: z.unknown().optional(),
  queueId: OptionalId.optional(),
  sendFarewellMessage: Flag.optional(),
  amountUsedBotQueues: z.coerce.number().int().min(0).optional(),
  ratingId: OptionalId.optional(),
  rating: z.coerce.number().min(-MAX_SCORE).max(MAX_SCORE).optional(),
  /** The opportunity the ticket options menu links (null unlinks). */
  oportunidadeId: OptionalId.optional(),
});
export type TicketUpdate = z.infer<typeof TicketUpdate>;

/** PUT /tickets/multiUpdate body. */
export const TicketMultiUpdate = TicketUpdate.extend({
  ticketIds: z.array(Id).min(1).max(1000),
});
export type TicketMultiUpdate = z.infer<typeof TicketMultiUpdate>;

/** POST /tickets body (new-ticket dialog, spec 000 §5). */
export const TicketCreate = z.object({
  contactId: Id,
  queueId: OptionalId.optional(),
  whatsappId: OptionalId.optional(),
  userId: OptionalId.optional(),
  status: TicketStatus.default("open"),
});
export type TicketCreate = z.infer<typeof TicketCreate>;

/** The commands a PUT body asks of `ticket`, in the order they apply. */
export function commandsForUpdate(ticket: Ticket, body: TicketUpdate): TicketCommand[] {
  const commands: TicketCommand[] = [];
  const queueId = body.queueId ?? null;
  const acceptShape = ticket.status === "pending" && body.status === "open" &&
    (queueId === null || queueId === ticket.queueId);
  const userChanges = body.userId !== undefined && body.userId !== ticket.userId;

  if (body.status === "closed") {
    if (ticket.status === "pending") commands.push({ type: "closePending" });
    else if (ticket.status === "open") {
      commands.push({
        type: "resolve",
        ratingId: body.ratingId ?? null,
        rating: body.rating ?? null,
        farewell: body.sendFarewellMessage,
      });
    }
  } else if (body.return) {
    commands.push({ type: "return" });
  } else if (
    queueId !== null && ticket.status !== "closed" && !acceptShape &&
    (queueId !== ticket.queueId || userChanges || body.status === "pending")
  ) {
    const userId = body.userId !== undefined
      ? body.userId
      : body.status === "pending"
      ? null
      : ticket.userId;
    commands.push({ type: "transfer", queueId, userId });
  } else if (body.status === "open") {
    if (ticket.status === "closed") commands.push({ type: "reopen", userId: body.userId });
    else commands.push({ type: "accept", userId: body.userId });
  } else if (body.status === "pending") {
    if (ticket.status === "open") commands.push({ type: "return" });
    else if (ticket.status === "closed") {
      throw new AppError("ERR_CONFLICT", {
        status: 409,
        message: `Cannot make ticket ${ticket.id} pending: it is closed`,
      });
    }
  } else if (userChanges && ticket.status !== "closed") {
    throw new AppError("ERR_VALIDATION", {
      status: 400,
      message: SELECT_QUEUE,
      fields: { queueId: SELECT_QUEUE },
    });
  }
  if (body.unreadMessages !== undefined) {
    commands.push({ type: "setUnread", unreadMessages: body.unreadMessages });
  }
  if (body.amountUsedBotQueues !== undefined) {
    commands.push({ type: "setBotQueues", amountUsedBotQueues: body.amountUsedBotQueues });
  }
  if (body.oportunidadeId !== undefined) {
    commands.push({ type: "setOportunidade", oportunidadeId: body.oportunidadeId });
  }
  return commands;
}
