/**
 * A message's value in KV (keys.ts `messageKey`): msgpack bytes of its fields by position.
 *
 * Why: KV writes a Uint8Array as it is and any other value through V8's serializer, whose
 * call costs ~3.7 µs however small the value and ~5 µs for a message's 21 fields (each with
 * its name), once per message on the ingest path (issue #34). The fields in a fixed order
 * through msgpackr cost ~1.8 µs and 162 B instead of 380 B (fewer KV pages written a commit);
 * reading one back costs what V8's deserializer did (~3.3 µs).
 *
 * `[LAYOUT, ...the fields of MESSAGE_FIELDS, extras]`: the layout number says which list the
 * positions follow, so a field added to `Message` later gets a new list and a new number and
 * values already stored still read. `extras` holds any other own field (none today) or null,
 * so nothing a message carries is dropped. A field that is undefined stays absent.
 *
 * Stores written before hold the message object, and so may a seeder's store (bench/
 * inbox_seed.ts): `storedMessage` reads both. Every read of a message value goes through it.
 */
import { Packr } from "msgpackr";
import type { Message } from "../../domain/message.ts";

/** The fields of layout 1, in their stored order. Never reorder: add a new layout instead. */
const MESSAGE_FIELDS = [
  "id",
  "ticketId",
  "companyId",
  "contactId",
  "body",
  "fromMe",
  "mediaType",
  "mediaUrl",
  "mediaName",
  "mimetype",
  "quotedMsgId",
  "isDeleted",
  "isEdited",
  "ack",
  "read",
  "providerId",
  "participant",
  "userId",
  "failed",
  "sendAttempts",
  "createdAt",
  "updatedAt",
] as const satisfies readonly (keyof Message)[];

const LAYOUT = 1;
const KNOWN: ReadonlySet<string> = new Set(MESSAGE_FIELDS);

/**
 * The codec: plain msgpack (no shared record structures to keep beside the values). A
 * constant configured once; msgpackr's own buffers behind it are its business, and a value
 * it returns is never written over by a later one.
 */
const codec = new Packr({ useRecords: false, moreTypes: false });

/** The KV value of `message`. */
export function messageValue(message: Message): Uint8Array {
  const fields = message as unknown as Record<string, unknown>;
  const row: unknown[] = [LAYOUT];
  for (let i = 0; i < MESSAGE_FIELDS.length; i++) row.push(fields[MESSAGE_FIELDS[i]]);
  let extras: Record<string, unknown> | null = null;
  for (const key in fields) if (!KNOWN.has(key)) (extras ??= {})[key] = fields[key];
  row.push(extras);
  return codec.pack(row);
}

/** The message a KV value holds: bytes of `messageValue`, or an older store's object. */
export function storedMessage(raw: unknown): Message {
  if (!(raw instanceof Uint8Array)) return raw as Message;
  const row = codec.unpack(raw) as unknown[];
  if (row[0] !== LAYOUT) throw new Error(`A stored message has the unknown layout ${String(row[0])}`);
  const message: Record<string, unknown> = {};
  for (let i = 0; i < MESSAGE_FIELDS.length; i++) {
    const value = row[i + 1];
    if (value !== undefined) message[MESSAGE_FIELDS[i]] = value;
  }
  const extras = row[MESSAGE_FIELDS.length + 1] as Record<string, unknown> | null;
  if (extras) Object.assign(message, extras);
  return message as unknown as Message;
}

/** `storedMessage` of a KV entry's value, or null when the key holds none. */
export function storedMessageOrNull(raw: unknown): Message | null {
  return raw === null || raw === undefined ? null : storedMessage(raw);
}
