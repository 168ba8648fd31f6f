/**
 * Seeds the inbox benchmark's company (bench/inbox.ts) straight into KV with the areas' own
 * key builders and record builders: 50,000 contacts, 100,000 tickets (10% pending, 20% open,
 * 70% closed over 20 users and 5 queues) and 1,000,000 messages, bulk-loaded into the store's
 * SQLite file (bench/lib/kv_bulk_load.ts). The users and queues go through the product's own
 * commands.
 */
import { ActorSystem } from "../actors/_runtime/system.ts";
import { createUser } from "../actors/platform/commands.ts";
import { queues } from "../actors/queues/collection.ts";
import { ticketCounterKey, ticketKey } from "../actors/tickets/keys.ts";
import { messageKey, metaKey } from "../actors/messages/keys.ts";
import { buildContact } from "../domain/contact.ts";
import { type Message, messageId } from "../domain/message.ts";
import { DEFAULT_LUNCH, DEFAULT_SCHEDULES, type Queue } from "../domain/queue.ts";
import { buildTicket, type Ticket, type TicketStatus } from "../domain/ticket.ts";
import { hashPassword } from "../server/auth/passwords.ts";
import { loadFromWorker, verifyLoaded } from "./lib/kv_bulk_load.ts";

export interface SeedPlan {
  companyId: number;
  whatsappId: number;
  contacts: number;
  tickets: number;
  messages: number;
  /** Messages of the one ticket whose page is measured. */
  bigTicketMessages: number;
  /** Word placed in the messages of about 1% of the tickets (the search benchmark). */
  searchWord: string;
}

/** The staff the volume is spread over. */
export interface Staff {
  userIds: number[];
  userEmails: string[];
  queueIds: number[];
}

/** What the benchmark needs to know about the seeded volume. */
export interface Seeded {
  bigTicketId: number;
  pendingIds: number[];
  firstTicketId: number;
}

const WORDS = (
  "bom dia boa tarde preciso ajuda pedido entrega produto valor preço boleto cartão prazo " +
  "troca defeito nota fiscal endereço cliente obrigado aguardo retorno quando chega hoje amanhã " +
  "semana pagamento confirmado cancelar compra loja site aplicativo senha acesso conta cadastro " +
  "frete grátis desconto cupom promoção garantia assistência técnica modelo cor tamanho estoque"
).split(" ");

/** A small deterministic PRNG, so two runs seed the same data. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uuid (v4 layout) drawn from `random`, so the seed's tickets are the same on every run. */
function seededUuid(random: () => number): string {
  const hex = (bits: number) => Math.floor(random() * 2 ** bits).toString(16).padStart(bits / 4, "0");
  const variant = (8 + Math.floor(random() * 4)).toString(16);
  return `${hex(32)}-${hex(16)}-4${hex(12)}-${variant}${hex(12)}-${hex(24)}${hex(24)}`;
}

/** Adds queues (up to 5) and 20 agents with the demo password through the product's commands. */
export async function seedStaff(
  system: ActorSystem,
  companyId: number,
  password: string,
): Promise<Staff> {
  const coll = queues.in(system, companyId);
  const existing = await coll.list();
  const colors = ["#7c3aed", "#db2777", "#ea580c", "#0891b2", "#65a30d"];
  for (let n = existing.length; n < 5; n++) {
    await coll.create((id, now): Queue => ({
      id, companyId, name: `Fila ${n + 1}`, color: colors[n], prioridade: n + 1,
      greetingMessage: "", outOfHoursMessage: "", tempoRoteador: 0, ativarRoteador: false,
      isChatbot: false, typeChatbot: "", n8n: "", n8nId: "", workspaceTypebot: "", typebotId: "",
      resetChatbotMsg: false, schedules: DEFAULT_SCHEDULES, lunchHour: DEFAULT_LUNCH,
      createdAt: now, updatedAt: now,
    }));
  }
  const queueIds = (await coll.list()).slice(0, 5).map((q) => q.id);
  const passwordHash = await hashPassword(password, "fast");
  const userIds: number[] = [];
  const userEmails: string[] = [];
  for (let n = 0; n < 20; n++) {
    const email = `bench${n + 1}@demo.local`;
    const user = await createUser(system, {
      companyId,
      name: `Atendente ${n + 1}`,
      email,
      passwordHash,
      profile: "user",
      queueIds: [queueIds[n % 5], queueIds[(n + 1) % 5]],
    });
    userIds.push(user.id);
    userEmails.push(email);
  }
  return { userIds, userEmails, queueIds };
}

/** The ids the store already holds: the seed's contacts and tickets come after them. */
export interface SeedBases {
  contactBase: number;
  ticketBase: number;
}

/** What `volumeEntries` answers: the entries to write, in order, and what to check after. */
export interface Volume {
  entries: Iterable<[Deno.KvKey, unknown]>;
  seeded: Seeded;
  /** A contact, a message and a ticket as written (filled while `entries` is read). */
  samples: Array<[Deno.KvKey, unknown]>;
}

/**
 * Seeds contacts, tickets and messages (see the module doc) into the closed store at
 * `kvPath`: a worker builds them (bench/lib/seed_worker.ts) while this thread bulk-loads them
 * into the store's SQLite file (bench/lib/kv_bulk_load.ts says why), then a contact, a ticket
 * and a message are read back through Deno KV.
 */
export async function seedVolume(
  kvPath: string,
  plan: SeedPlan,
  staff: Staff,
): Promise<Seeded> {
  const kv = await Deno.openKv(kvPath);
  const bases: SeedBases = {
    contactBase: (await kv.get<number>(["counter", "contact", plan.companyId])).value ?? 0,
    ticketBase: (await kv.get<number>(ticketCounterKey(plan.companyId))).value ?? 0,
  };
  kv.close();
  const worker = new Worker(new URL("./lib/seed_worker.ts", import.meta.url), { type: "module" });
  worker.postMessage({ plan, staff, bases });
  const { result } = await loadFromWorker<Omit<Volume, "entries">>(kvPath, worker);
  await verifyLoaded(kvPath, result.samples);
  return result.seeded;
}

/** The seed's entries, built lazily (see the module doc); deterministic for a plan and bases. */
export function volumeEntries(plan: SeedPlan, staff: Staff, { contactBase, ticketBase }: SeedBases): Volume {
  const { companyId } = plan;
  const random = rng(42);
  const now = Date.now();
  const DAY = 86_400_000;
  const samples: Array<[Deno.KvKey, unknown]> = [];
  /** Keeps `entry` to read back once loaded (one of each kind). */
  const sample = (entry: [Deno.KvKey, unknown]) => {
    samples.push(entry);
    return entry;
  };

  const contacts = (function* (): Generator<[Deno.KvKey, unknown]> {
    for (let n = 1; n <= plan.contacts; n++) {
      const id = contactBase + n;
      const number = `55${11 + (n % 80)}9${String(10_000_000 + n * 37).slice(-8)}`;
      const first = ["Ana", "Bruno", "Carla", "Diego", "Elisa", "Fábio", "Gabi", "Hugo"][n % 8];
      const entry: [Deno.KvKey, unknown] = [["contact", companyId, id], buildContact(id, companyId, {
        name: `${first} Cliente ${n}`,
        number,
      }, now - 90 * DAY)];
      yield n === 1 ? sample(entry) : entry;
    }
    yield [["counter", "contact", companyId], contactBase + plan.contacts];
  })();

  // Tickets: statuses by position; active tickets get distinct contacts (one active ticket
  // per contact and connection), closed ones any contact.
  const tickets: Ticket[] = [];
  const pendingIds: number[] = [];
  const activeCount = Math.round(plan.tickets * 0.3);
  for (let n = 0; n < plan.tickets; n++) {
    const id = ticketBase + n + 1;
    const status: TicketStatus = n < plan.tickets * 0.1 ? "pending" : n < activeCount ? "open" : "closed";
    const queueId = staff.queueIds[n % staff.queueIds.length];
    const userIndex = Math.floor(random() * staff.userIds.length);
    // An open ticket goes to a user of its queue (user k has queues k%5 and (k+1)%5).
    const owner = staff.userIds[(n % 5) + 5 * (userIndex % 4)];
    const createdAt = now - Math.floor(random() * 30 * DAY);
    const contactId = contactBase + 1 + (n < activeCount ? n : Math.floor(random() * plan.contacts));
    const t = buildTicket({
      id,
      uuid: seededUuid(random),
      companyId,
      contactId,
      whatsappId: plan.whatsappId,
      queueId,
      userId: status === "pending" ? null : owner,
      status,
      isGroup: false,
      channel: "whatsapp",
    }, createdAt);
    if (status === "pending") pendingIds.push(id);
    tickets.push(t);
  }

  // Messages: the big ticket gets its share first, the rest spread evenly.
  const bigTicketId = ticketBase + Math.round(plan.tickets * 0.15); // an open ticket
  let messagesLeft = plan.messages - plan.bigTicketMessages;
  const perTicket = messagesLeft / (plan.tickets - 1);
  // Each ticket's last message sets its preview and times, so the tickets follow the messages.
  const messagesThenTickets = (function* (): Generator<[Deno.KvKey, unknown]> {
    let carry = 0;
    for (const t of tickets) {
      let count: number;
      if (t.id === bigTicketId) count = plan.bigTicketMessages;
      else {
        carry += perTicket;
        count = Math.min(messagesLeft, Math.floor(carry));
        carry -= count;
        messagesLeft -= count;
      }
      const withWord = t.id % 100 === 7;
      let at = t.createdAt;
      let lastId: string | null = null;
      let lastBody = "";
      for (let m = 0; m < count; m++) {
        at += 1000 + Math.floor(random() * 600_000);
        const wordCount = 5 + Math.floor(random() * 8);
        let body = WORDS[Math.floor(random() * WORDS.length)];
        for (let w = 1; w < wordCount; w++) {
          if (w === 2 && withWord && m === count - 1) body += " " + plan.searchWord;
          body += " " + WORDS[Math.floor(random() * WORDS.length)];
        }
        const id = messageId(t.id, at, m);
        const message: Message = {
          id, ticketId: t.id, companyId, contactId: t.contactId, body, fromMe: m % 2 === 1,
          mediaType: "chat", mediaUrl: null, mediaName: null, mimetype: null, quotedMsgId: null,
          isDeleted: false, isEdited: false, ack: 3, read: true, providerId: null,
          participant: null, userId: null, failed: null, sendAttempts: 0, createdAt: at,
          updatedAt: at,
        };
        lastId = id;
        lastBody = body;
        const entry: [Deno.KvKey, unknown] = [messageKey(companyId, t.id, id), message];
        yield t.id === bigTicketId && m === 0 ? sample(entry) : entry;
      }
      yield [metaKey(companyId, t.id), { count, lastId }];
      t.lastMessage = lastBody.slice(0, 255);
      t.latestCreatedAt = lastId ? at : null;
      t.updatedAt = Math.min(now, Math.max(t.createdAt, at));
      if (t.status === "closed") t.closedAt = t.updatedAt;
      if (t.status === "open") t.acceptedAt = t.createdAt;
    }
    for (const t of tickets) {
      const entry: [Deno.KvKey, unknown] = [ticketKey(companyId, t.id), t];
      yield t.id === bigTicketId ? sample(entry) : entry;
    }
    yield [ticketCounterKey(companyId), ticketBase + plan.tickets];
  })();

  return {
    entries: (function* () {
      yield* contacts;
      yield* messagesThenTickets;
    })(),
    seeded: { bigTicketId, pendingIds, firstTicketId: ticketBase + 1 },
    samples,
  };
}
