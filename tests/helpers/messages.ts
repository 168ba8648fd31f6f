/**
 * Fixtures for the messages tests: inbound messages built like a channel builds them, fed
 * through the real inbound path (`receiveInbound`), and waits for bus events.
 */
import { receiveInbound } from "../../actors/messages/mod.ts";
import type { InboundMessage } from "../../domain/channel.ts";
import type { Message } from "../../domain/message.ts";
import { defaultConnection } from "./fixtures.ts";
import type { TestServer } from "./server.ts";

/** A stored message with every field set (a customer's text, not yet acknowledged), as unit tests start from. */
export function sampleMessage(fields: Partial<Message> = {}): Message {
  return {
    id: "1700000000000000-1",
    ticketId: 1,
    companyId: 1,
    contactId: 1,
    body: "x",
    fromMe: true,
    mediaType: "chat",
    mediaUrl: null,
    mediaName: null,
    mimetype: null,
    quotedMsgId: null,
    isDeleted: false,
    isEdited: false,
    ack: 0,
    read: true,
    providerId: null,
    participant: null,
    userId: null,
    failed: null,
    sendAttempts: 0,
    createdAt: 1,
    updatedAt: 1,
    ...fields,
  };
}

/** An inbound text from `from` (fresh provider id unless given). */
export function inboundText(
  from: string,
  body: string,
  fields: Partial<InboundMessage> = {},
): InboundMessage {
  return {
    providerId: `P-${crypto.randomUUID()}`,
    from,
    name: `Cliente ${from.slice(-4)}`,
    body,
    mediaType: "chat",
    fromMe: false,
    isGroup: false,
    timestamp: Date.now(),
    ...fields,
  };
}

/** Feeds `msg` through the inbound path on the company's default connection. */
export async function receive(server: TestServer, msg: InboundMessage, companyId = server.demo!.companyId) {
  const conn = await defaultConnection(server, companyId);
  return await receiveInbound(server.deps, companyId, conn.id, msg);
}

/** A fresh customer number: a São Paulo mobile (9 and eight digits), one WhatsApp could have. */
export function freshNumber(): string {
  return `55119${String(crypto.getRandomValues(new Uint32Array(1))[0] % 1e8).padStart(8, "0")}`;
}

/** Resolves with the first bus event matching `match` (rejects after `ms`); one helper for both. */
export { nextEvent } from "./channels.ts";
