/**
 * What the ticket calls need from the messages area: the message-body search
 * (`searchTicketIds`) and the system messages of a transition (`sendSystemMessage` for the
 * greeting on accept and the farewell on resolve). Both come from actors/messages/mod.ts;
 * until that module exports them, search falls back to contacts only and no system
 * message is sent.
 */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import type { AppDeps } from "../deps.ts";

interface MessagesHooks {
  searchTicketIds?: (system: ActorSystem, companyId: number, term: string) => Promise<Set<number>>;
  sendSystemMessage?: (
    deps: AppDeps,
    companyId: number,
    ticketId: number,
    body: string,
  ) => Promise<unknown>;
}

// A computed specifier: the module is optional while the messages area is being built.
const MESSAGES_MODULE = ["..", "..", "actors", "messages", "mod.ts"].join("/");
let hooks: Promise<MessagesHooks> | undefined;

/** The messages area's exports the ticket calls use (loaded once). */
export function messagesHooks(): Promise<MessagesHooks> {
  hooks ??= import(MESSAGES_MODULE).then((m) => m as MessagesHooks).catch(() => ({}));
  return hooks;
}
