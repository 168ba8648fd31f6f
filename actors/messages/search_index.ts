/**
 * Message-body search for `GET /tickets?searchParam` (issue #3): a per-company inverted index
 * from words (folded: lower case, no accents; ≥ 3 characters, see `wordsOf`) to the ids of
 * the tickets whose messages contain them.
 *
 * Building (issue #23 §1: a first search after a start took 9 s at 1M messages). Every
 * company's index is loaded from KV (below) or, when it has none, built in the background
 * from start-up (`warmAll`, called by
 * server/boot.ts once the read models are warm; `/health` does not wait), one company after
 * another; a company searched before its turn, created later or evicted starts its own build
 * at once. A build is one reverse pass over the company's messages (`kv.list` returns a
 * ticket's messages together, newest tickets first), so the tickets agents look for most are
 * indexed first. It works in slices of `SLICE_MS` with a pause of `REST_MS` between them
 * (_runtime/slices.ts: a `setTimeout`, since the event loop polls sockets before timers,
 * while a microtask, `setImmediate` or a `MessageChannel` kept requests waiting for seconds,
 * measured with a spinning loop and curl), resting through the system's turns with its
 * other background jobs, so together they take at most two thirds of the event loop and a
 * request waits at most a slice. Packing the lists it filled into the compact form
 * (postings.ts) is sliced the same way, as is every later freeze of the live lists
 * (`#maybeFreeze`): at 4M pairs one whole merge was a pause of 170–580 ms on a loaded
 * machine. A freeze and the saves after it are upkeep, which nobody waits for: they rest
 * longer between slices (`restLonger`), since they come while messages pour in and at two
 * thirds of the loop they held the next 100 ms of a 10,000 messages/s burst late.
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
 * searched other companies' indexes are dropped (a dropped one is loaded again from KV on
 * its next search, which answers partially meanwhile). Indexes are no longer dropped for
 * being idle: an idle company's index costs only its memory, which `MAX_PAIRS` already bounds,
 * while dropping it made the next search after a quiet quarter of an hour pay a whole rebuild;
 * and rebuilding it at once would buy nothing, the index being the same. A deleted company's
 * index is dropped with its data (`drop`).
 *
 * Kept in KV (search_store.ts). A start loads the company's saved lists and indexes the
 * messages of the search log written since (the messages actor writes a log entry in the
 * same atomic as every new message and edit), rather than read every message again: at 1M
 * messages a rebuild takes 20–50 s, during which a search waits for the build's slices at
 * each of its steps (p99 0.26–0.73 s at load 4–5; the search itself takes 0.05 ms), and at
 * 10M it would take minutes. A load is one read of ~4 bytes a pair (0.3–1.2 s at 1M). The
 * lists are saved after a build, after each freeze and after a load that replayed the log,
 * in the background and in slices; the head naming a complete save is written last, so a
 * crash mid-save leaves the previous save whole. A message committed whose live event never
 * arrived (a crash between the two) is in the log, so the next start finds it. A store
 * without a saved index (an older one, or one a seeder wrote around the log, which the load
 * detects) is built as above.
 */
import { MIN_WORD, parseMessageId, wordsOf } from "../../domain/message.ts";
import type { BusEvent } from "../../domain/events.ts";
import type { ActorSystem } from "../_runtime/system.ts";
import { SLICE_MS, type SliceTurns, within } from "../_runtime/slices.ts";
import { companyMessagesPrefix, messageKey } from "./keys.ts";
import { FrozenPostings, Postings, PostingsMerge } from "./postings.ts";
import { loadIndex, loggedSince, LOG_MARGIN_MS, newestMessageId, saveIndex } from "./search_store.ts";
import { log } from "../_runtime/log.ts";
import { storedMessage, storedMessageOrNull } from "./stored.ts";

/** Ceiling on (word, ticket) pairs over all live indexes (≈ 4 bytes each). */
export const MAX_PAIRS = 24_000_000;
/** Longest word indexed. */
export const MAX_WORD = 40;
/**
 * How long after a build began a search still waits for it rather than answer partially: a
 * small company's build ends within it, and a search during a long one does not wait at all.
 */
export const PARTIAL_AFTER_MS = 20;

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
  /** `startedAt` on the system's clock (the search log's). */
  startedAtClock: number;
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
  /** Set from the start of a build (or load) until its lists are packed into `frozen`. */
  build: Build | null;
  /** `frozen` holds every message whose search log entry is older (search_store.ts). */
  covers: number;
  /** A save of `frozen` is running. */
  saving: boolean;
}

/** Raw tokens whose folded words are remembered (bounds `TokenWords`). */
const TOKEN_CACHE = 50_000;

/**
 * The indexed words of each whitespace-separated token, remembered: messages reuse a small
 * vocabulary, so folding (Unicode normalisation for accented text) runs once per distinct
 * token instead of once per message. Whitespace separates words in `wordsOf`'s both paths,
 * so the words of a text are the union of its tokens' words.
 */
export class TokenWords {
  #words = new Map<string, readonly string[]>();
  /**
   * The words `collect` found, in `[0, count)`: one array reused from message to message (each
   * message's words used to cost a `split` array and an array per token).
   */
  readonly found: string[] = [];

  /**
   * Puts the indexed words of `body`'s tokens (split where `split(/\s+/)` splits) into `found`,
   * a word as often as its tokens yield it; returns how many. One pass over the characters
   * tells the tokens apart and which are plain (`isPlainChar`).
   */
  collect(body: string): number {
    let count = 0;
    let start = -1;
    let plain = true;
    const length = body.length;
    for (let i = 0; i <= length; i++) {
      const c = i < length ? body.charCodeAt(i) : 32;
      if (isSpace(c)) {
        if (start >= 0) count = this.#collectToken(body, start, i, plain, count);
        start = -1;
      } else if (start < 0) {
        start = i;
        plain = isPlainChar(c);
      } else if (plain && !isPlainChar(c)) plain = false;
    }
    return count;
  }

  #collectToken(body: string, start: number, end: number, plain: boolean, count: number): number {
    const found = this.found;
    if (plain) {
      // The token is its one word, when its length is indexed.
      const length = end - start;
      if (length >= MIN_WORD && length <= MAX_WORD) found[count++] = indexKey(body.slice(start, end));
      return count;
    }
    for (const word of this.#folded(body.slice(start, end))) found[count++] = word;
    return count;
  }

  /**
   * The words of a token that is not plain, folded once and remembered. Plain tokens, most of
   * them (numbers and names are mostly new tokens), never reach this cache: caching them made
   * it a churn of misses, each folding its token, ~7 % of the inbound path's CPU (issue #34).
   */
  #folded(token: string): readonly string[] {
    let words = this.#words.get(token);
    if (words === undefined) {
      if (this.#words.size >= TOKEN_CACHE) this.#words.clear();
      words = [...wordsOf(token)].filter((w) => w.length <= MAX_WORD).map(indexKey);
      this.#words.set(token, words);
    }
    return words;
  }
}

/** Whether UTF-16 unit `c` is whitespace to `\s` (ECMAScript's WhiteSpace and LineTerminator). */
function isSpace(c: number): boolean {
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * Whether `c` is an ASCII lowercase letter or digit: a token of only these is plain, its one
 * word itself (`wordsOf` keeps it whole).
 */
function isPlainChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/**
 * The key a word is listed under: a word that starts with a digit gets a `#` in front. Digit
 * strings ("12345", what order numbers, amounts and ids are) are array indices to V8, whose
 * Map hashes them by their value: a miss among 150,000 of them took ~7 µs instead of ~0.8,
 * and a message with a new number met two misses (the packed lists, then the live ones),
 * ~14 µs of the inbound path at 512 in flight (issue #34). Words are letters and digits only
 * (`wordsOf`), so no search word contains `#` and a substring match finds the word as before.
 */
function indexKey(word: string): string {
  const first = word.charCodeAt(0);
  return first >= 48 && first <= 57 ? "#" + word : word;
}

/** Adds `id` to `word`'s list in `lists`; returns whether the pair is new there. */
function addPair(lists: Map<string, Postings>, word: string, id: number): boolean {
  const postings = lists.get(word);
  if (postings) return postings.add(id);
  lists.set(word, Postings.of(id));
  return true;
}

/** Adds the words of a message the build read. */
function addScanned(index: CompanyIndex, build: Build, tokens: TokenWords, ticketId: number, body: string): void {
  const flipped = FLIP - ticketId;
  const count = tokens.collect(body);
  const words = tokens.found;
  for (let k = 0; k < count; k++) if (addPair(build.scanned, words[k], flipped)) index.pairs++;
}

/** Adds the words of a message that arrived live. */
function addLive(index: CompanyIndex, tokens: TokenWords, ticketId: number, body: string): void {
  const count = tokens.collect(body);
  const words = tokens.found;
  for (let k = 0; k < count; k++) {
    const word = words[k];
    if (index.frozen.has(word, ticketId) || !addPair(index.added, word, ticketId)) continue;
    index.pairs++;
    index.addedPairs++;
  }
}

/** Calls `keep` with each id of every list in `lists` whose word contains `needle`. */
function visitLists(lists: Map<string, Postings>, needle: string, keep: (id: number) => void): void {
  for (const [word, postings] of lists) {
    if (!word.includes(needle)) continue;
    for (let i = 0; i < postings.size; i++) keep(postings.ids[i]);
  }
}

/** Above this many packed ids per id found so far, a word tests those ids instead of visiting its lists. */
const PROBE_RATIO = 16;

/**
 * Ids of the tickets whose indexed words contain every word of `term`. The rarest word (by
 * its packed lists' size) goes first and each later one only tests the ids found so far,
 * by binary search, when its lists are much longer: "cliente 12345" visited the ten million
 * pairs of "cliente" before finding that no ticket has "12345" (issue #23 §3, 200 ms).
 */
function match(index: CompanyIndex, term: string): Set<number> {
  const { frozen } = index;
  const words = [...wordsOf(term)].map((needle) => {
    const slots = frozen.slotsContaining(needle);
    return { needle, slots, size: slots.reduce((n, slot) => n + frozen.sizeOf(slot), 0) };
  }).sort((a, b) => a.size - b.size);
  let result: Set<number> | null = null;
  for (const { needle, slots, size } of words) {
    const matches = new Set<number>();
    const within: Set<number> | null = result;
    const keep = (id: number) => {
      if (within === null || within.has(id)) matches.add(id);
    };
    if (within !== null && within.size * PROBE_RATIO < size) {
      for (const id of within) if (slots.some((slot) => frozen.hasIn(slot, id))) matches.add(id);
    } else frozen.visitSlots(slots, keep);
    visitLists(index.added, needle, keep);
    if (index.freezing) visitLists(index.freezing, needle, keep);
    if (index.build) visitLists(index.build.scanned, needle, (flipped) => keep(FLIP - flipped));
    result = matches;
    if (result.size === 0) break;
  }
  return result ?? new Set();
}

/**
 * The messages under `prefix`, newest ticket first, `BATCH` at a time, each page read while
 * the one before is indexed (`kv.list` reads its next batch only when asked, and the build
 * then idled for each read: half of a 1M-message build).
 */
async function* pagesOf(kv: Deno.Kv, prefix: Deno.KvKey): AsyncGenerator<Deno.KvEntry<unknown>[]> {
  const read = async (selector: Deno.KvListSelector) => {
    const page: Deno.KvEntry<unknown>[] = [];
    for await (const entry of kv.list(selector, { limit: BATCH, batchSize: BATCH, reverse: true })) {
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

/** The message indexes of one actor system (one per app; see `messageSearch`). */
export class MessageSearch {
  #kv: Deno.Kv;
  /** The system's background turns (_runtime/slices.ts): builds, loads and saves rest through them. */
  #turns: SliceTurns;
  #now: () => number;
  #indexes = new Map<number, CompanyIndex>();
  #tokens = new TokenWords();
  /** Set once the store is closed: builds stop quietly. */
  #closed = false;

  constructor(system: ActorSystem) {
    this.#kv = system.kv;
    this.#turns = system.slices;
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
          log.warn(`Message search: ${MAX_PAIRS} pairs indexed; other companies build on their first search`);
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
        covers: -Infinity,
        saving: false,
      };
      const build: Build = {
        scanned: new Map(),
        startedAt: performance.now(),
        startedAtClock: this.#now(),
        done: Promise.resolve(),
      };
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
      if (await this.#load(companyId, index, live)) return;
      if (!live()) return;
      let sliceEnd = performance.now() + SLICE_MS;
      for await (const page of pagesOf(this.#kv, companyMessagesPrefix(companyId))) {
        for (const { value } of page) {
          const message = storedMessage(value);
          if (typeof message.body === "string") addScanned(index, build, this.#tokens, message.ticketId, message.body);
          if (performance.now() < sliceEnd) continue;
          await this.#turns.rest();
          if (!live()) return;
          sliceEnd = performance.now() + SLICE_MS;
        }
      }
      // No freeze runs during a build, so `frozen` is still the empty form it started with.
      // Every pair counted so far that is not a live one is in `scanned` (`frozen` is empty).
      const scannedPairs = index.pairs - index.addedPairs;
      const packed = await this.#pack(new PostingsMerge(index.frozen, build.scanned, FLIP, scannedPairs), live);
      if (!packed) return;
      index.frozen = packed;
      index.covers = build.startedAtClock - LOG_MARGIN_MS;
      index.pairs = packed.ids.length + index.addedPairs;
      index.build = null;
      this.#evict(companyId);
      this.#save(companyId, index);
      this.#maybeFreeze(companyId, index);
    } catch (error) {
      // A closed KV handle fails the read before `listening` tells this index the store closed.
      if (!live() || error instanceof Deno.errors.BadResource) return;
      this.#indexes.delete(companyId);
      log.error(`Message search: the index of company ${companyId} failed to build (retried on its next search)`, { error });
    }
  }

  /**
   * Loads the company's saved index (search_store.ts) and indexes the messages logged since
   * it was saved; false when there is none or it is not to be trusted (then the caller
   * builds). Searches meanwhile answer partially, from what is loaded so far.
   */
  async #load(companyId: number, index: CompanyIndex, live: () => boolean): Promise<boolean> {
    const pause = async () => {
      await this.#turns.rest();
      return live();
    };
    const loaded = await loadIndex(this.#kv, companyId, pause);
    if (!loaded || !live()) return false;
    // The log's message ids first: whether the store was written around it.
    const logged: string[] = [];
    for await (const ids of loggedSince(this.#kv, companyId, loaded.coversBefore)) logged.push(...ids);
    const newest = await newestMessageId(this.#kv, companyId);
    if (newest !== loaded.newest && (newest === null || !logged.includes(newest))) {
      log.warn(`Message search: the saved index of company ${companyId} misses messages written since; rebuilding`);
      return false;
    }
    if (!live()) return false;
    index.frozen = loaded.frozen;
    index.covers = loaded.coversBefore;
    index.pairs = loaded.frozen.ids.length + index.addedPairs;
    for (let n = 0; n < logged.length; n += 10) {
      const keys = logged.slice(n, n + 10).flatMap((id) => {
        const parsed = parseMessageId(id);
        return parsed ? [messageKey(companyId, parsed.ticketId, id)] : [];
      });
      for (const { value } of await this.#kv.getMany(keys)) {
        const message = storedMessageOrNull(value);
        if (message && typeof message.body === "string") addLive(index, this.#tokens, message.ticketId, message.body);
      }
      if (n % 500 === 0 && !await pause()) return false;
    }
    const replayed = logged.length;
    index.build = null;
    this.#evict(companyId);
    // What was replayed is packed and saved, so the next start replays from here.
    this.#maybeFreeze(companyId, index, replayed > 0);
    return true;
  }

  /** Saves the company's packed lists in the background, one save at a time (search_store.ts). */
  #save(companyId: number, index: CompanyIndex): void {
    if (index.saving) return;
    index.saving = true;
    const live = () => !this.#closed && this.#indexes.get(companyId) === index;
    // Upkeep: nobody waits for a save (_runtime/slices.ts).
    const pause = async () => {
      await this.#turns.restLonger();
      return live();
    };
    saveIndex(this.#kv, companyId, index.frozen, index.covers, pause)
      .catch((error) => {
        if (live()) log.error(`Message search: the index of company ${companyId} could not be saved`, { error });
      })
      .finally(() => index.saving = false);
  }

  /**
   * Runs `merge` in slices; null when `live()` turned false meanwhile. A build's searches
   * wait for its packing; a freeze is upkeep and rests longer (`upkeep`, _runtime/slices.ts).
   */
  async #pack(merge: PostingsMerge, live: () => boolean, upkeep = false): Promise<FrozenPostings | null> {
    for (;;) {
      const packed = merge.step(performance.now() + SLICE_MS);
      if (packed) return packed;
      await (upkeep ? this.#turns.restLonger() : this.#turns.rest());
      if (!live()) return null;
    }
  }

  /**
   * Packs the live lists into the frozen ones in the background once they hold
   * `FREEZE_MIN` pairs or an eighth of the index, or when `force`d (not during a build,
   * nor two at once), then saves them.
   */
  #maybeFreeze(companyId: number, index: CompanyIndex, force = false): void {
    if (index.build || index.freezing) return;
    if (!force && index.addedPairs <= Math.max(FREEZE_MIN, index.pairs / 8)) return;
    const lists = index.added;
    const listPairs = index.addedPairs;
    const startedAtClock = this.#now();
    index.freezing = lists;
    index.added = new Map();
    index.addedPairs = 0;
    const live = () => !this.#closed && this.#indexes.get(companyId) === index;
    this.#pack(new PostingsMerge(index.frozen, lists, null, listPairs), live, true).then((packed) => {
      if (packed) {
        index.frozen = packed;
        index.covers = startedAtClock - LOG_MARGIN_MS;
        index.pairs = packed.ids.length + index.addedPairs;
      }
      index.freezing = null;
      if (packed) this.#save(companyId, index);
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
