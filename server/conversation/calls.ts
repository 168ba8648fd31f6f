/**
 * A voice or video call to the connection (setting `call`, "Aceitar chamadas"): it is noted
 * in the caller's conversation as a call_log message either way; when calls are not accepted
 * (the default) the adapter rejects it and the caller is asked to write instead.
 */
import { receiveInbound } from "../../actors/messages/mod.ts";
import { companySettings } from "../../actors/platform/lookup.ts";
import type { AdapterEvent } from "../../domain/channel.ts";
import { CALL_REJECTED_TEXT } from "../../domain/conversation_texts.ts";
import { settingOn } from "../../domain/settings.ts";
import type { AppDeps } from "../deps.ts";
import { sendBot } from "../usecases/bot_send.ts";
import { log } from "../../actors/_runtime/log.ts";

/** A call event of an adapter. */
export type CallEvent = Extract<AdapterEvent, { type: "call" }>;

/** The text of a call's call_log message. */
export function callLogText(call: Pick<CallEvent, "isVideo">): string {
  return call.isVideo ? "Chamada de vídeo" : "Chamada de voz";
}

/**
 * Handles one call on connection `whatsappId`; `reject` asks the adapter to decline it.
 * Group calls and calls from numbers the caller's rules drop are left alone by the caller.
 */
export async function handleCall(
  deps: AppDeps,
  session: { companyId: number; whatsappId: number },
  call: CallEvent,
  reject: () => Promise<void>,
): Promise<void> {
  const { companyId, whatsappId } = session;
  const settings = await companySettings(deps.system, companyId);
  const accepted = settingOn(settings.call);
  if (!accepted) await reject().catch((error) => log.error(`Rejecting call ${call.callId} failed`, { error }));
  const stored = await receiveInbound(deps, companyId, whatsappId, {
    providerId: `CALL-${call.callId}`,
    from: call.from,
    name: call.name,
    body: callLogText(call),
    mediaType: "call_log",
    fromMe: false,
    isGroup: false,
    timestamp: Date.now(),
  });
  if (!accepted && !stored.duplicate) await sendBot(deps, companyId, stored.ticketId, { text: CALL_REJECTED_TEXT });
}
