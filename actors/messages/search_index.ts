/**
 * Message-body search for `GET /tickets?searchParam` (issue #3): a per-company inverted index
 * from words (folded: lower case, no accents; ≥ 3 characters, see `wordsOf`) to the ids of
 * the tickets whose messages contain them.
 *
 * Lifecycle: an index is built on the first search of its company by one pass over the
 * company's messages (`kv.list`, which returns a ticket's messages together, so each posting
 * list is appended in ticket order and stays sorted), and is then kept current from the
 * `appMessage` events on the bus (new messages and edits). Events that arrive while it is
 * being built are buffered and applied after. Edited-away and deleted words are not removed
 * (a ticket may match on text it once had).
 *
 * Matching: every word of the term must occur, as a substring of an indexed word, in some
 * message of the ticket (a term of several words matches tickets having all of them, not
 * necessarily in one message). A term with no word of 3+ characters matches nothing here.
 *
 * Memory: one uint32 per (word, ticket) pair, packed after the build (postings.ts), plus the
 * vocabulary.
 * Indexes not searched for `IDLE_MS` are dropped (checked on every search), and when the
 * live indexes together hold more than `MAX_PAIRS` pairs the least recently searched other
 * companies' indexes are dropped; a dropped index is rebuilt on its next search. Words longer
 * than `MAX_WORD` characters are not indexed.
 */
import { wordsOf } from "../../domain/message.ts";
import type { BusEvent } from "../../domain/events.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { companyMessagesPrefix } from "./keys.ts";
import { FrozenPostings, Postings } from "./postings.ts";

/** Indexes idle longer than this are dropped. */
export const IDLE_MS = 15 * 60_000;
/** Ceiling on (word, ticket) pairs over all live indexes (≈ 4 bytes each). */
export const MAX_PAIRS = 24_000_000;
/** Longest word indexed. */
export const MAX_WORD = 40;

/** Live additions are frozen (packed) once they hold this many pairs, or an eighth of the index. */
const FREEZE_MIN = 50_000;

interface CompanyIndex {
  /** The packed lists: everything up to the last freeze. */
  frozen: FrozenPostings;
  /** Lists of what arrived since, in growable form. */
  added: Map<string, Postings>;
  addedPairs: number;
  pairs: number;
  lastUsed: number;
  /** Set while building: resolves when done; events meanwhile wait in `buffer`. */
  building: Promise<void> | null;
  buffer: Array<{ ticketId: number; body: string }>;
}

/** Raw tokens whose folded words are remembered (bounds `TokenWords`). */
const TOKEN_CACHE = 50_000;

/**
 * The indexed words of each whitespace-separated token, remembered: messages reuse a small
 * vocabulary, so folding (Unicode normalisation for accented text) runs once per distinct
 * token instead of once per message. Whitespace separates words in `wordsOf`'s both paths,
 * so the words of a text are the union of its tokens' words.
 */
class TokenWords {
  #words = new Map<string, readonly string[]>();

  of(token: string): readonly string[] {
    let words = this.#words.get(token);
    if (words === undefined) {
      if (this.#words.size >= TOKEN_CACHE) this.#words.clear();
      words = [...wordsOf(token)].filter((w) => w.length <= MAX_WORD);
      this.#words.set(token, words);
    }
    return words;
  }
}

function addText(index: CompanyIndex, tokens: TokenWords, ticketId: number, body: string): void {
  for (const token of body.split(/\s+/)) {
    if (token.length === 0) continue;
    for (const word of tokens.of(token)) addWord(index, ticketId, word);
  }
}

function addWord(index: CompanyIndex, ticketId: number, word: string): void {
  if (index.frozen.has(word, ticketId)) return;
  let postings = index.added.get(word);
  if (!postings) index.added.set(word, postings = new Postings());
  if (postings.add(ticketId)) {
    index.pairs++;
    index.addedPairs++;
  }
}

/** Packs the live additions into the frozen lists. */
function freeze(index: CompanyIndex): void {
  index.frozen = index.frozen.merge(index.added);
  index.added = new Map();
  index.addedPairs = 0;
}

/** The message indexes of one actor system (one per app; see `messageSearch`). */
export class MessageSearch {
  #kv: Deno.Kv;
  #now: () => number;
  #indexes = new Map<number, CompanyIndex>();
  #tokens = new TokenWords();

  constructor(system: ActorSystem) {
    this.#kv = system.kv;
    this.#now = system.now;
    system.bus.subscribe((event) => this.#onEvent(event));
  }

  /** Ids of the company's tickets whose messages contain every word of `term`. */
  async search(companyId: number, term: string): Promise<Set<number>> {
    const index = await this.#ready(companyId);
    const found = new Set<number>();
    const needles = [...wordsOf(term)];
    if (needles.length === 0) return found;
    let result: Set<number> | null = null;
    for (const needle of needles) {
      const matches = new Set<number>();
      const within = result;
      const keep = (id: number) => {
        if (within === null || within.has(id)) matches.add(id);
      };
      index.frozen.visit((word) => word.includes(needle), keep);
      for (const [word, postings] of index.added) {
        if (!word.includes(needle)) continue;
        for (let i = 0; i < postings.size; i++) keep(postings.ids[i]);
      }
      result = matches;
      if (result.size === 0) break;
    }
    return result ?? found;
  }

  /** Builds the company's index now (a benchmark warms it before measuring). */
  async warm(companyId: number): Promise<void> {
    await this.#ready(companyId);
  }

  /** Pairs held by the live indexes, for tests and metrics. */
  get pairs(): number {
    let total = 0;
    for (const index of this.#indexes.values()) total += index.pairs;
    return total;
  }

  async #ready(companyId: number): Promise<CompanyIndex> {
    const now = this.#now();
    this.#evict(companyId, now);
    let index = this.#indexes.get(companyId);
    if (!index) {
      index = {
        frozen: new FrozenPostings(),
        added: new Map(),
        addedPairs: 0,
        pairs: 0,
        lastUsed: now,
        building: null,
        buffer: [],
      };
      this.#indexes.set(companyId, index);
      index.building = this.#build(companyId, index);
    }
    index.lastUsed = now;
    if (index.building) await index.building;
    else if (index.addedPairs > Math.max(FREEZE_MIN, index.pairs / 8)) freeze(index);
    return index;
  }

  async #build(companyId: number, index: CompanyIndex): Promise<void> {
    try {
      for await (
        const entry of this.#kv.list<{ ticketId: number; body: string }>(
          { prefix: companyMessagesPrefix(companyId) },
          { batchSize: 1000 },
        )
      ) {
        addText(index, this.#tokens, entry.value.ticketId, entry.value.body);
      }
      for (const item of index.buffer) addText(index, this.#tokens, item.ticketId, item.body);
      freeze(index);
    } catch (error) {
      this.#indexes.delete(companyId);
      throw error;
    } finally {
      index.buffer = [];
      index.building = null;
    }
  }

  /** Drops idle indexes and, over the pair ceiling, the least recently used others. */
  #evict(keep: number, now: number): void {
    for (const [companyId, index] of this.#indexes) {
      if (companyId !== keep && !index.building && now - index.lastUsed > IDLE_MS) {
        this.#indexes.delete(companyId);
      }
    }
    if (this.pairs <= MAX_PAIRS) return;
    const others = [...this.#indexes.entries()]
      .filter(([id, index]) => id !== keep && !index.building)
      .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [companyId] of others) {
      this.#indexes.delete(companyId);
      if (this.pairs <= MAX_PAIRS) return;
    }
  }

  #onEvent(event: BusEvent): void {
    if (event.companyId === null || !event.channel.endsWith("-appMessage")) return;
    const index = this.#indexes.get(event.companyId);
    if (!index) return;
    const data = event.data as { message?: { ticketId?: unknown; body?: unknown } };
    const ticketId = data.message?.ticketId;
    const body = data.message?.body;
    if (typeof ticketId !== "number" || typeof body !== "string") return;
    if (index.building) index.buffer.push({ ticketId, body });
    else addText(index, this.#tokens, ticketId, body);
  }
}

const searches = new WeakMap<ActorSystem, MessageSearch>();

/**
 * The message search of `system`, created on first use. Held per actor system (so each
 * server, and each test's server, has its own) rather than in a module-level singleton.
 */
export function messageSearch(system: ActorSystem): MessageSearch {
  let search = searches.get(system);
  if (!search) searches.set(system, search = new MessageSearch(system));
  return search;
}
