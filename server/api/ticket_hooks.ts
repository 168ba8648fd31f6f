/**
 * What the ticket calls need from the messages area: the message-body search
 * (`searchTicketIds`) and the system messages of a transition (`sendSystemMessage` for the
 * greeting on accept and the farewell on resolve). One seam, so the ticket handlers name
 * no other messages internals.
 */
export {
  deleteTicketMessages,
  searchTicketIds,
  sendSystemMessage,
} from "../../actors/messages/mod.ts";
