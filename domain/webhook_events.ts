/**
 * Which outbound webhook events a bus event is (issue #22). The actors publish the realtime
 * frames of spec 000 §4 (`company-{id}-appMessage`, `-ticket`, `-contact`,
 * `-whatsappSession`); a subscription gets a stable event name with the same record:
 *
 * | bus event                                  | webhook event     | lane (kept in order) |
 * |--------------------------------------------|-------------------|----------------------|
 * | appMessage `create`                        | message.created   | the ticket           |
 * | appMessage `update` whose `ack` changed    | message.ack       | the ticket           |
 * | ticket `update` of a change that created it | ticket.created    | the ticket           |
 * | ticket `update` (any other change)         | ticket.updated    | the ticket           |
 * | contact `create`                           | contact.created   | the contact          |
 * | whatsappSession `update` whose status changed | session.status | the connection       |
 * | campaign `update` that reaches FINALIZADA  | campaign.finished | the campaign         |
 *
 * An appMessage update is also an edit or a delete; those are not acks, so the last ack seen
 * per message is remembered (`Seen`) and only a change is sent. The session event comes twice
 * (admins with the QR code, others without): only the copy without it is used, so a QR code
 * never leaves the product. Pure: the memory is the caller's.
 */
import type { BusEvent } from "./events.ts";
import type { WebhookEvent } from "./webhook.ts";

/** One outgoing event: its name, what keeps it in order, and its `data`. */
export interface OutgoingEvent {
  event: WebhookEvent;
  lane: string;
  data: Record<string, unknown>;
}

/** The caller's memory of the last ack per message and status per connection. */
export interface Seen {
  /** Returns the previous value for `key` and remembers `value`. */
  swap(key: string, value: unknown): unknown;
}

type Rec = Record<string, unknown>;

const isRec = (x: unknown): x is Rec => typeof x === "object" && x !== null;

/** The outgoing events of `event` (often none). */
export function outgoingEvents(event: BusEvent, seen: Seen): OutgoingEvent[] {
  if (event.companyId === null || !isRec(event.data)) return [];
  const prefix = `company-${event.companyId}-`;
  if (!event.channel.startsWith(prefix)) return [];
  const data = event.data;
  switch (event.channel.slice(prefix.length)) {
    case "appMessage":
      return messageEvents(data, seen);
    case "ticket":
      return ticketEvents(event, data);
    case "contact":
      if (data.action !== "create" || !isRec(data.contact)) return [];
      return [{ event: "contact.created", lane: `c${data.contact.id}`, data: { contact: data.contact } }];
    case "whatsappSession":
      return sessionEvents(event, data, seen);
    case "campaign":
      return campaignEvents(data, seen);
    default:
      return [];
  }
}

function messageEvents(data: Rec, seen: Seen): OutgoingEvent[] {
  const message = data.message;
  if (!isRec(message)) return [];
  const lane = `t${message.ticketId}`;
  const previous = seen.swap(`m${message.id}`, message.ack);
  if (data.action === "create") {
    return [{ event: "message.created", lane, data: { message, ticket: data.ticket, contact: data.contact } }];
  }
  if (data.action !== "update" || previous === message.ack) return [];
  return [{ event: "message.ack", lane, data: { message, ticket: data.ticket } }];
}

function ticketEvents(event: BusEvent, data: Rec): OutgoingEvent[] {
  if (data.action !== "update" || !isRec(data.ticket)) return [];
  const name = event.created ? "ticket.created" : "ticket.updated";
  return [{ event: name, lane: `t${data.ticket.id}`, data: { ticket: data.ticket } }];
}

function sessionEvents(event: BusEvent, data: Rec, seen: Seen): OutgoingEvent[] {
  if (event.scope.kind !== "notAdmins" || !isRec(data.session)) return [];
  const session = data.session;
  if (seen.swap(`w${session.id}`, session.status) === session.status) return [];
  const { qrcode: _qr, qrcodeEvo: _qrEvo, ...rest } = session;
  return [{ event: "session.status", lane: `w${session.id}`, data: { session: rest } }];
}

/** A campaign's updates after its end (late confirmations) stay FINALIZADA: only the change is sent. */
function campaignEvents(data: Rec, seen: Seen): OutgoingEvent[] {
  const record = data.record;
  if (data.action !== "update" || !isRec(record)) return [];
  if (seen.swap(`k${record.id}`, record.status) === "FINALIZADA" || record.status !== "FINALIZADA") return [];
  return [{ event: "campaign.finished", lane: `k${record.id}`, data: { campaign: record } }];
}

/** A bounded `Seen`: forgets the oldest keys past `max` (a forgotten key counts as changed). */
export class BoundedSeen implements Seen {
  readonly #values = new Map<string, unknown>();
  constructor(readonly max = 20_000) {}

  swap(key: string, value: unknown): unknown {
    const previous = this.#values.get(key);
    this.#values.delete(key);
    this.#values.set(key, value);
    if (this.#values.size > this.max) this.#values.delete(this.#values.keys().next().value!);
    return previous;
  }
}
