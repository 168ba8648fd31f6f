/**
 * The contacts of one company (actor id = company id). All records live in memory with
 * indexes by number, LID and name (state.ts); every write goes through this mailbox, so
 * "find or create by number" can never create the same number twice.
 *
 * KV: `["contact", companyId, id] → Contact`, `["counter", "contact", companyId] → last id`.
 * Activation lists the company's contacts once (50,000 contacts ≈ 50 list batches), or from
 * 50,000 on loads them from a snapshot (snapshot.ts; 500,000 contacts listed ~7.5 s, loaded
 * ~1 s) and re-reads the ones marked as changed since.
 * Number and LID lookups use the in-memory indexes, so no KV secondary index is kept.
 */
import {
  buildContact,
  type Contact,
  type ContactFields,
  mergeContactRecords,
  type NewContact,
  normalizeLid,
  duplicatedNameMessage,
  normalizeNumber,
} from "../../domain/contact.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { companyChannel } from "../../domain/events.ts";
import { type ActorContext, type AnyActorDef, defineActor } from "../_runtime/actor.ts";
import { buildState, type ContactsState, coreState, dropContact, putContact, putMany } from "./state.ts";
import { NAME_IN_BACKGROUND_FROM, nameLater } from "./naming.ts";
import { openSnapshot, snapshotting } from "../_runtime/record_snapshot.ts";
import { type ContactsActorState, CONTACT_SNAPSHOTS } from "./snapshot.ts";

/** KV key of one contact. */
export const contactKey = (companyId: number, id: number): Deno.KvKey => [...CONTACT_SNAPSHOTS.recordPrefix(companyId), id];
const counterKey = (companyId: number): Deno.KvKey => ["counter", "contact", companyId];

/** The 404 of a contact that does not exist in the company. */
export const contactMissing = (id: number) =>
  notFound("ERR_NO_CONTACT_FOUND", `Contact ${id} does not exist`);

/** The 400 of a number that another contact already has, with the spec's text (000 §8). */
export function duplicated(existing: Contact): AppError {
  return new AppError("ERR_DUPLICATED_CONTACT", {
    status: 400,
    message: duplicatedNameMessage(existing.name),
    extra: { existingContact: existing },
  });
}

type Ctx = ActorContext<ContactsActorState>;

/** Parallel KV list streams used on activation. */
const LOAD_STREAMS = 4;

function emitContact(ctx: Ctx, action: "create" | "update", contact: Contact): void {
  ctx.emit({
    companyId: contact.companyId,
    channel: companyChannel(contact.companyId, "contact"),
    data: { action, contact },
    scope: { kind: "company" },
  });
}

function emitDelete(ctx: Ctx, contactId: number, mergedInto?: number): void {
  const companyId = ctx.state.companyId;
  ctx.emit({
    companyId,
    channel: companyChannel(companyId, "contact"),
    data: mergedInto
      ? { action: "delete", contactId, mergedInto }
      : { action: "delete", contactId },
    scope: { kind: "company" },
  });
}

function write(ctx: Ctx, contact: Contact): void {
  putContact(ctx.state, contact);
  store(ctx, contact);
}

/** Writes the contact and its snapshot mark (snapshot.ts) into the handler's commit. */
function store(ctx: Ctx, contact: Contact): void {
  ctx.set(contactKey(contact.companyId, contact.id), contact);
  snapshot.mark(ctx, contact.id);
}

/** Deletes the contact's record, marked for the snapshot. */
function erase(ctx: Ctx, id: number): void {
  ctx.delete(contactKey(ctx.state.companyId, id));
  snapshot.mark(ctx, id);
}

/** The contacts' snapshot (record_snapshot.ts): marks with their writes, and its save's handlers. */
const snapshot = snapshotting<ContactsActorState, Contact>(CONTACT_SNAPSHOTS, (): AnyActorDef => contactsActor, (state) => ({
  companyId: state.companyId,
  snap: state.snap,
  count: state.contacts.size,
  records: () => [...state.contacts.values()],
}));

function allocate(ctx: Ctx, fields: ContactFields): Contact {
  const state = ctx.state;
  const id = ++state.counter;
  ctx.set(counterKey(state.companyId), state.counter);
  const contact = buildContact(id, state.companyId, fields, ctx.now);
  write(ctx, contact);
  return contact;
}

/** What a found contact should learn from a new sighting (picture, a real name, its LID). */
function refresh(found: Contact, input: NewContact, lid: string, number: string): Contact | null {
  const next = { ...found };
  if (input.profilePicUrl && input.profilePicUrl !== found.profilePicUrl) {
    next.profilePicUrl = input.profilePicUrl;
  }
  const named = input.name.trim();
  if (named && named !== found.name && (!found.name || found.name === found.number)) {
    next.name = named;
  }
  if (lid && !found.lid) next.lid = lid;
  if (number && !found.number) next.number = number;
  const changed = next.profilePicUrl !== found.profilePicUrl || next.name !== found.name ||
    next.lid !== found.lid || next.number !== found.number;
  return changed ? next : null;
}

/** Resolves a sighting against the indexes without writing: the found contact, if any. */
export function lookup(state: ContactsState, input: NewContact): Contact | undefined {
  const { number, lid } = sightingKeys(input);
  const byNumber = number ? state.byNumber.get(number) : undefined;
  if (byNumber !== undefined) return state.contacts.get(byNumber);
  const byLid = lid ? state.byLid.get(lid) : undefined;
  return byLid === undefined ? undefined : state.contacts.get(byLid);
}

/** The number and LID of a sighting; a LID passed as the number is moved to `lid`. */
export function sightingKeys(input: NewContact): { number: string; lid: string } {
  const raw = input.number.trim();
  if (/@lid$/i.test(raw)) return { number: "", lid: normalizeLid(raw) };
  return { number: normalizeNumber(raw), lid: normalizeLid(input.lid) };
}

/**
 * What a sighting means for the current state: the found contact (if any) and, when it must
 * learn something (picture, name, LID, number), its next version. Pure; the fast path of
 * `findOrCreateContact` uses it to skip the mailbox when nothing changes.
 */
export function resolveSighting(
  state: ContactsState,
  input: NewContact,
): { found?: Contact; next: Contact | null } {
  const { number, lid } = sightingKeys(input);
  const found = lookup(state, input);
  if (!found) return { next: null };
  // A LID or number that already names another contact stays there until mergeContacts runs.
  const lidFree = lid && !found.lid && !state.byLid.has(lid);
  const numberFree = number && !found.number && !state.byNumber.has(number);
  return { found, next: refresh(found, input, lidFree ? lid : "", numberFree ? number : "") };
}

/** Every contact of the company from its records (id ranges listed in parallel). */
async function listContacts(kv: Deno.Kv, companyId: number, counter: number): Promise<Contact[]> {
  const prefix = CONTACT_SNAPSHOTS.recordPrefix(companyId);
  const span = Math.max(1, Math.ceil((counter + 1) / LOAD_STREAMS));
  const parts = await Promise.all(Array.from({ length: LOAD_STREAMS }, (_, k) => {
    const start = [...prefix, k * span];
    const selector = k === LOAD_STREAMS - 1
      ? { prefix, start }
      : { start, end: [...prefix, (k + 1) * span] };
    return Array.fromAsync(kv.list<Contact>(selector, { batchSize: 1000 }), (e) => e.value);
  }));
  return parts.flat();
}

export const contactsActor = defineActor({
  kind: "contacts",
  // The company's contacts are a read model (lists, ticket joins, inbound lookups): reloading
  // 50,000 records after an idle spell would stall the next inbound message, so stay live.
  idleMs: Number.POSITIVE_INFINITY,
  async load(kv, id, system): Promise<ContactsActorState> {
    const companyId = Number(id);
    const [counter, { loaded, snap }] = await Promise.all([
      kv.get<number>(counterKey(companyId)).then((entry) => entry.value ?? 0),
      openSnapshot(kv, CONTACT_SNAPSHOTS, companyId),
    ]);
    // A snapshot's records are in the resident shape already (snapshot.ts): not copied again.
    const records = loaded ? loaded.records : await listContacts(kv, companyId, counter);
    if (records.length < NAME_IN_BACKGROUND_FROM) {
      return Object.assign(buildState(companyId, records, counter, loaded !== null), { snap });
    }
    const { state, contacts } = coreState(companyId, records, counter, loaded !== null);
    const actorState = Object.assign(state, { snap });
    nameLater(system, actorState, contacts);
    return actorState;
  },

  handlers: {
    /** Creates a contact; a number another contact has is ERR_DUPLICATED_CONTACT. */
    create(ctx, fields: ContactFields): Contact {
      const number = fields.number ?? "";
      const existing = number ? ctx.state.byNumber.get(number) : undefined;
      if (existing !== undefined) throw duplicated(ctx.state.contacts.get(existing)!);
      const contact = allocate(ctx, fields);
      emitContact(ctx, "create", contact);
      return contact;
    },

    /** Changes fields of a contact; the number stays unique. */
    update(ctx, arg: { id: number; patch: ContactFields }): Contact {
      const old = ctx.state.contacts.get(arg.id);
      if (!old) throw contactMissing(arg.id);
      const next: Contact = { ...old, ...arg.patch, id: old.id, companyId: old.companyId };
      next.updatedAt = ctx.now;
      if (next.number && next.number !== old.number) {
        const other = ctx.state.byNumber.get(next.number);
        if (other !== undefined && other !== old.id) {
          throw duplicated(ctx.state.contacts.get(other)!);
        }
      }
      write(ctx, next);
      emitContact(ctx, "update", next);
      return next;
    },

    /** Deletes the contacts that exist among `ids` (at most 500 per call); replies with them. */
    remove(ctx, ids: number[]): Contact[] {
      const removed: Contact[] = [];
      for (const id of new Set(ids)) {
        const old = ctx.state.contacts.get(id);
        if (!old) continue;
        dropContact(ctx.state, id);
        erase(ctx, id);
        emitDelete(ctx, id);
        removed.push(old);
      }
      return removed;
    },

    /** Finds the contact of a sighting by number, then LID; creates it when unknown. */
    findOrCreate(ctx, input: NewContact): { contact: Contact; created: boolean } {
      const { number, lid } = sightingKeys(input);
      const { found, next } = resolveSighting(ctx.state, input);
      if (found) {
        if (!next) return { contact: found, created: false };
        next.updatedAt = ctx.now;
        write(ctx, next);
        emitContact(ctx, "update", next);
        return { contact: next, created: false };
      }
      if (!number && !lid) {
        throw new AppError("ERR_VALIDATION", {
          status: 400,
          message: `Cannot create a contact without number or LID (name ${input.name})`,
        });
      }
      const contact = allocate(ctx, {
        name: input.name.trim() || number || lid,
        number,
        lid: lid || null,
        isGroup: input.isGroup,
        channel: input.channel ?? "whatsapp",
        profilePicUrl: input.profilePicUrl ?? "",
      });
      emitContact(ctx, "create", contact);
      return { contact, created: true };
    },

    /** Merges contact `fromId` into `intoId` and deletes `fromId`. */
    merge(ctx, arg: { fromId: number; intoId: number }): Contact {
      const from = ctx.state.contacts.get(arg.fromId);
      const into = ctx.state.contacts.get(arg.intoId);
      if (!from) throw contactMissing(arg.fromId);
      if (!into) throw contactMissing(arg.intoId);
      if (from.id === into.id) return into;
      const merged = mergeContactRecords(from, into, ctx.now);
      dropContact(ctx.state, from.id);
      erase(ctx, from.id);
      write(ctx, merged);
      emitDelete(ctx, from.id, merged.id);
      emitContact(ctx, "update", merged);
      return merged;
    },

    /**
     * Creates many contacts at once (import): numbers already known, or repeated within the
     * batch, are skipped and counted. At most 400 rows per call (KV's per-atomic limit).
     */
    createMany(
      ctx,
      rows: ContactFields[],
    ): { created: Contact[]; duplicated: number } {
      const state = ctx.state;
      const created: Contact[] = [];
      const seen = new Set<string>();
      let duplicates = 0;
      for (const row of rows) {
        const number = row.number ?? "";
        if (number && (state.byNumber.has(number) || seen.has(number))) {
          duplicates++;
          continue;
        }
        if (number) seen.add(number);
        const contact = buildContact(++state.counter, state.companyId, row, ctx.now);
        store(ctx, contact);
        emitContact(ctx, "create", contact);
        created.push(contact);
      }
      if (created.length) ctx.set(counterKey(state.companyId), state.counter);
      putMany(state, created);
      return { created, duplicated: duplicates };
    },

    // The snapshot's save and start (record_snapshot.ts `snapshotting`).
    snapshotCapture: (ctx) => snapshot.handlers.snapshotCapture(ctx),
    snapshotToken: (ctx) => snapshot.handlers.snapshotToken(ctx),
    snapshotDone: (ctx, gen: number | null) => snapshot.handlers.snapshotDone(ctx, gen),
    snapshotIfDue: (ctx) => snapshot.handlers.snapshotIfDue(ctx),
  },
});
