/**
 * Message-body search for `GET /tickets?searchParam` (issue #3): a per-company inverted index
 * from words (folded: lower case, no accents; ≥ 3 characters, see `wordsOf`) to the ids of
 * the tickets whose messages contain them.
 *
 * Building (issue #23 §1: a first search after a start took 9 s at 1M messages). Every
 * company's index is built in the background from start-up (`warmAll`, called by
 * server/boot.ts once the read models are warm; `/health` does not wait), one company after
 * another; a company searched before its turn, created later or evicted starts its own build
 * at once. A build is one reverse pass over the company's messages (`kv.list` returns a
 * ticket's messages together, newest tickets first), so the tickets agents look for most are
 * indexed first. It works in slices of `SLICE_MS` with a pause of `REST_MS` between them (a
 * `setTimeout`: the event loop polls sockets before timers, while a microtask, `setImmediate`
 * or a `MessageChannel` kept requests waiting for seconds, measured with a spinning loop and
 * curl), so it takes at most two thirds of the event loop and a request waits at most a slice. Packing the lists it filled into the
 * compact form (postings.ts) is sliced the same way, as is every later freeze of the live
 * lists (`#maybeFreeze`): at 4M pairs one whole merge was a pause of 170–580 ms on a loaded
 * machine.
 *
 * Partial answers. The lists are readable while they fill: a slice runs to its end before
 * any search reads them, so they are never half written. A search waits for its company's
 * build until `PARTIAL_AFTER_MS` after the build began (a small company's build ends within
 * it; a search during a long build does not wait), then answers
 * from what is indexed so far, which includes every message that arrived since the build
 * began, with `partial: true`; the inbox says the results are partial. No bounded scan of the
 * rest: the rest is the oldest tickets, and scanning some of them for each search would take
 * the same work from the build that is about to read them anyway.
 *
 * Live updates: `appMessage` events (new messages and edits) are added to the live lists as
 * they arrive, during a build too, so a message the pass has already gone by is not missed;
 * the live lists are packed into the frozen ones when they grow large. Edited-away and deleted words are not removed
 * (a ticket may match on text it once had).
 *
 * Matching: every word of the term must occur, as a substring of an indexed word, in some
 * message of the ticket (a term of several words matches tickets having all of them, not
 * necessarily in one message). A term with no word of 3+ characters matches nothing here.
 *
 * Memory and eviction: one uint32 per (word, ticket) pair, packed after the build
 * (postings.ts), plus the vocabulary; words longer than `MAX_WORD` characters are not
 * indexed. When the indexes together hold more than `MAX_PAIRS` pairs, the least recently
 * searched other companies' indexes are dropped (a dropped one is rebuilt in the background
 * on its next search, which answers partially meanwhile). Indexes are no longer dropped for
 * being idle: an idle company's index costs only its memory, which `MAX_PAIRS` already bounds,
 * while dropping it made the next search after a quiet quarter of an hour pay a whole rebuild;
 * and rebuilding it at once would buy nothing, the index being the same. A deleted company's
 * index is dropped with its data (`drop`).
 *
 * Not persisted in KV (yet). Loading would beat a build on time: reading 16 MB of packed
 * lists (4.1M pairs, the 1M-message bench) from a file KV took 160 ms on a loaded machine,
 * where the build takes about 9 s. But a loaded index must then catch up with every message
 * written or edited since it was saved, and message keys are ordered by ticket, not time:
 * finding those needs a time-ordered change log written with every message and edit (a
 * second key on the hottest write path), or the very scan a build does. Saving is also a
 * 16 MB write to slice and repeat. With builds in the background and partial answers
 * meanwhile, a start no longer makes anyone wait, only shows partial results for the length
 * of a build, so that log is left for when that window matters.
 */
import { wordsOf } from "../../domain/message.ts";
import type { BusEvent } from "../../domain/events.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { companyMessagesPrefix } from "./keys.ts";
import { FrozenPostings, Postings, PostingsMerge } from "./postings.ts";

/** Ceiling on (word, ticket) pairs over all live indexes (≈ 4 bytes each). */
export const MAX_PAIRS = 24_000_000;
/** Longest word indexed. */
export const MAX_WORD = 40;
/**
 * How long after a build began a search still waits for it rather than answer partially: a
 * small company's build ends within it, and a search during a long one does not wait at all.
 */
export const PARTIAL_AFTER_MS = 20;

/** Work a build does before letting pending requests in. */
const SLICE_MS = 4;
/**
 * The pause after each slice. Not `setTimeout(0)`: a timer due at every turn of the event
 * loop ran a slice between every two steps of a request (each KV read, each actor's answer),
 * so a search that takes 2 ms took 300 ms during a build (bench/inbox.ts, loaded machine).
 */
const REST_MS = 2;
/** Messages per KV read of a build (a batch is decoded in one go, outside the slices). */
const BATCH = 200;
/** A build meets ticket ids in descending order and stores `FLIP - id` (postings.ts `PostingsMerge`). */
const FLIP = 0xffff_ffff;
/** Live additions are frozen (packed) once they hold this many pairs, or an eighth of the index. */
const FREEZE_MIN = 50_000;

/** What a search found: ticket ids, and whether the company's index was still being built. */
export interface MessageMatches {
  ids: Set<number>;
  partial: boolean;
}

/** A build in progress: the lists it has filled so far (ids flipped), its start and its end. */
interface Build {
  scanned: Map<string, Postings>;
  startedAt: number;
  done: Promise<void>;
}

interface CompanyIndex {
  /** The packed lists: everything up to the last freeze. */
  frozen: FrozenPostings;
  /** Lists of what arrived since (live events), in growable form. */
  added: Map<string, Postings>;
  addedPairs: number;
  /** Live lists being packed into `frozen` (in slices): still searched until that ends. */
  freezing: Map<string, Postings> | null;
  /** Pairs held (a pair both packed and live again counts twice until the next freeze). */
  pairs: number;
  lastUsed: number;
  /** Set from the start of a build until its lists are packed into `frozen`. */
  build: Build | null;
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

/** Adds `id` to `word`'s list in `lists`; returns whether the pair is new there. */
function addPair(lists: Map<string, Postings>, word: string, id: number): boolean {
  let postings = lists.get(word);
  if (!postings) lists.set(word, postings = new Postings());
  return postings.add(id);
}

/** Adds the words of a message the build read. */
function addScanned(index: CompanyIndex, build: Build, tokens: TokenWords, ticketId: number, body: string): void {
  const flipped = FLIP - ticketId;
  for (const token of body.split(/\s+/)) {
    if (token.length === 0) continue;
    for (const word of tokens.of(token)) if (addPair(build.scanned, word, flipped)) index.pairs++;
  }
}

/** Adds the words of a message that arrived live. */
function addLive(index: CompanyIndex, tokens: TokenWords, ticketId: number, body: string): void {
  for (const token of body.split(/\s+/)) {
    if (token.length === 0) continue;
    for (const word of tokens.of(token)) {
      if (index.frozen.has(word, ticketId) || !addPair(index.added, word, ticketId)) continue;
      index.pairs++;
      index.addedPairs++;
    }
  }
}

/** Calls `keep` with each id of every list in `lists` whose word contains `needle`. */
function visitLists(lists: Map<string, Postings>, needle: string, keep: (id: number) => void): void {
  for (const [word, postings] of lists) {
    if (!word.includes(needle)) continue;
    for (let i = 0; i < postings.size; i++) keep(postings.ids[i]);
  }
}

/** Ids of the tickets whose indexed words contain every word of `term`. */
function match(index: CompanyIndex, term: string): Set<number> {
  let result: Set<number> | null = null;
  for (const needle of wordsOf(term)) {
    const matches = new Set<number>();
    const within: Set<number> | null = result;
    const keep = (id: number) => {
      if (within === null || within.has(id)) matches.add(id);
    };
    index.frozen.visit((word) => word.includes(needle), keep);
    visitLists(index.added, needle, keep);
    if (index.freezing) visitLists(index.freezing, needle, keep);
    if (index.build) visitLists(index.build.scanned, needle, (flipped) => keep(FLIP - flipped));
    result = matches;
    if (result.size === 0) break;
  }
  return result ?? new Set();
}

/** What a build reads of a message. */
type MessageText = { ticketId: number; body: unknown };

/**
 * The messages under `prefix`, newest ticket first, `BATCH` at a time, each page read while
 * the one before is indexed (`kv.list` reads its next batch only when asked, and the build
 * then idled for each read: half of a 1M-message build).
 */
async function* pagesOf(kv: Deno.Kv, prefix: Deno.KvKey): AsyncGenerator<Deno.KvEntry<MessageText>[]> {
  const read = async (selector: Deno.KvListSelector) => {
    const page: Deno.KvEntry<MessageText>[] = [];
    for await (const entry of kv.list<MessageText>(selector, { limit: BATCH, batchSize: BATCH, reverse: true })) {
      page.push(entry);
    }
    return page;
  };
  let next = read({ prefix });
  for (;;) {
    const page = await next;
    if (page.length === 0) return;
    next = page.length < BATCH ? Promise.resolve([]) : read({ prefix, end: page[page.length - 1].key });
    // A build that stops early leaves the read ahead unawaited: its failure is not an error.
    next.catch(() => {});
    yield page;
  }
}

/** Resolves after a pause in which the event loop serves what is pending (see the module doc). */
function rest(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, REST_MS));
}

/** Waits for `promise` at most `ms` (no wait left behind when it settles first). */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  if (ms <= 0) return;
  if (ms === Infinity) return await promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => timer = setTimeout(resolve, ms))]);
  clearTimeout(timer);
}

/** The message indexes of one actor system (one per app; see `messageSearch`). */
export class MessageSearch {
  #kv: Deno.Kv;
  #now: () => number;
  #indexes = new Map<number, CompanyIndex>();
  #tokens = new TokenWords();
  /** Set once the store is closed: builds stop quietly. */
  #closed = false;

  constructor(system: ActorSystem) {
    this.#kv = system.kv;
    this.#now = system.now;
    system.bus.subscribe((event) => this.#onEvent(event));
    system.listening.then(() => this.#closed = true, () => this.#closed = true);
  }

  /**
   * Ids of the company's tickets whose messages contain every word of `term`. While the
   * company's index is being built, waits for the build until `waitMs` after it began, then
   * answers from what is indexed so far with `partial: true`.
   */
  async search(companyId: number, term: string, waitMs = Infinity): Promise<MessageMatches> {
    const index = this.#use(companyId);
    if (index.build) await within(index.build.done, index.build.startedAt + waitMs - performance.now());
    return { ids: match(index, term), partial: index.build !== null };
  }

  /** Builds the companies' indexes in the background, one after another (start-up). */
  warmAll(companyIds: readonly number[]): void {
    (async () => {
      for (const companyId of companyIds) {
        if (this.#closed) return;
        if (this.pairs >= MAX_PAIRS) {
          console.warn(`Message search: ${MAX_PAIRS} pairs indexed; other companies build on their first search`);
          return;
        }
        await this.#index(companyId).build?.done;
      }
    })();
  }

  /** Resolves when the company's index is built (starting its build if needed). */
  async whenReady(companyId: number): Promise<void> {
    const index = this.#index(companyId);
    if (index.build) await index.build.done;
  }

  /** Whether the company's index exists and is complete. */
  ready(companyId: number): boolean {
    const index = this.#indexes.get(companyId);
    return index !== undefined && index.build === null;
  }

  /** Forgets a company (its data was purged); a build in progress stops. */
  drop(companyId: number): void {
    this.#indexes.delete(companyId);
  }

  /** Pairs held by the live indexes, for tests and metrics. */
  get pairs(): number {
    let total = 0;
    for (const index of this.#indexes.values()) total += index.pairs;
    return total;
  }

  /** The company's index for a search: marked used, others evicted over the pair ceiling. */
  #use(companyId: number): CompanyIndex {
    this.#evict(companyId);
    const index = this.#index(companyId);
    index.lastUsed = this.#now();
    return index;
  }

  /** The company's index, its build started when it is new. */
  #index(companyId: number): CompanyIndex {
    let index = this.#indexes.get(companyId);
    if (!index) {
      index = {
        frozen: new FrozenPostings(),
        added: new Map(),
        addedPairs: 0,
        freezing: null,
        pairs: 0,
        lastUsed: this.#now(),
        build: null,
      };
      const build: Build = { scanned: new Map(), startedAt: performance.now(), done: Promise.resolve() };
      index.build = build;
      this.#indexes.set(companyId, index);
      build.done = this.#build(companyId, index, build);
    }
    return index;
  }

  /**
   * One reverse pass over the company's messages, then the packing of what it read, both in
   * slices (see the module doc). Never rejects.
   */
  async #build(companyId: number, index: CompanyIndex, build: Build): Promise<void> {
    const live = () => !this.#closed && this.#indexes.get(companyId) === index;
    try {
      let sliceEnd = performance.now() + SLICE_MS;
      for await (const page of pagesOf(this.#kv, companyMessagesPrefix(companyId))) {
        for (const { value } of page) {
          if (typeof value.body === "string") addScanned(index, build, this.#tokens, value.ticketId, value.body);
          if (performance.now() < sliceEnd) continue;
          await rest();
          if (!live()) return;
          sliceEnd = performance.now() + SLICE_MS;
        }
      }
      // No freeze runs during a build, so `frozen` is still the empty form it started with.
      const packed = await this.#pack(new PostingsMerge(index.frozen, build.scanned, FLIP), live);
      if (!packed) return;
      index.frozen = packed;
      index.pairs = packed.ids.length + index.addedPairs;
      index.build = null;
      this.#evict(companyId);
      this.#maybeFreeze(companyId, index);
    } catch (error) {
      if (!live()) return;
      this.#indexes.delete(companyId);
      console.error(`Message search: the index of company ${companyId} failed to build (retried on its next search)`, error);
    }
  }

  /** Runs `merge` in slices; null when `live()` turned false meanwhile. */
  async #pack(merge: PostingsMerge, live: () => boolean): Promise<FrozenPostings | null> {
    for (;;) {
      const packed = merge.step(performance.now() + SLICE_MS);
      if (packed) return packed;
      await rest();
      if (!live()) return null;
    }
  }

  /**
   * Packs the live lists into the frozen ones in the background once they hold
   * `FREEZE_MIN` pairs or an eighth of the index (not during a build, nor two at once).
   */
  #maybeFreeze(companyId: number, index: CompanyIndex): void {
    if (index.build || index.freezing || index.addedPairs <= Math.max(FREEZE_MIN, index.pairs / 8)) return;
    const lists = index.added;
    index.freezing = lists;
    index.added = new Map();
    index.addedPairs = 0;
    const live = () => !this.#closed && this.#indexes.get(companyId) === index;
    this.#pack(new PostingsMerge(index.frozen, lists), live).then((packed) => {
      if (packed) {
        index.frozen = packed;
        index.pairs = packed.ids.length + index.addedPairs;
      }
      index.freezing = null;
    });
  }

  /** Over the pair ceiling, drops the least recently searched other built indexes. */
  #evict(keep: number): void {
    if (this.pairs <= MAX_PAIRS) return;
    const others = [...this.#indexes.entries()]
      .filter(([id, index]) => id !== keep && !index.build)
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
    addLive(index, this.#tokens, ticketId, body);
    this.#maybeFreeze(event.companyId, index);
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
