/**
 * The chatbot tree at run time (spec 001 §3 "Queue option", §4 "Bot option tree"; issue #17):
 * how a customer's reply walks a queue's options. Pure: the options and the path in, the
 * choice out. The spec does not show the server's walk, so these are the readings chosen:
 *
 * - A level is the children of the last option of the path (the roots when the path is empty),
 *   numbered by `option`. A reply picks one by its number ("2", "*2*", "2.") or by its title
 *   typed out, case, accents, surrounding punctuation and spaces ignored.
 * - "0", "voltar", "back" and "#" go up one level (at the roots they show the roots again).
 * - A reply that picks nothing is invalid: the level's menu is shown again, or, when the
 *   queue's `resetChatbotMsg` is on, the walk starts over at the roots.
 * - A `text` option with children opens them as the next level (its message heads the menu);
 *   a leaf `text` option sends its message and media and the customer stays on the level.
 * - `queue`, `attendent` and `n8n` options end the level walk; what they do is the caller's.
 */
import { childrenOf } from "./bot_tree.ts";
import type { QueueOption } from "./queue_option.ts";

/** What the walker needs of an option. */
export type WalkOption = Pick<
  QueueOption,
  "id" | "parentId" | "title" | "message" | "queueType" | "option" | "queueOptionsId" | "queueUsersId" | "mediaPath" | "mediaName"
>;

/** Replies that go up one level. */
export const BACK_WORDS: readonly string[] = ["0", "voltar", "back", "volver", "#"];

/** Case, accents, asterisks and surrounding punctuation removed; inner spaces collapsed. */
export function foldReply(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[*_~]/g, "").replace(/\s+/g, " ")
    .replace(/^[\s.,;:!?)(-]+|[\s.,;:!?)(-]+$/g, "");
}

/** Whether the reply asks to go up one level. */
export function isBack(text: string): boolean {
  return BACK_WORDS.includes(foldReply(text));
}

/** The entry of `items` the reply names by number (1-based position given) or by title. */
export function pickByReply<T>(
  text: string,
  items: readonly T[],
  numberOf: (item: T, index: number) => number,
  titleOf: (item: T) => string,
): T | null {
  const folded = foldReply(text);
  if (folded === "") return null;
  if (/^\d{1,3}$/.test(folded)) {
    const n = Number(folded);
    return items.find((item, i) => numberOf(item, i) === n) ?? null;
  }
  return items.find((item) => foldReply(titleOf(item)) === folded) ?? null;
}

/** The options of the level below `path` (the roots for an empty path). */
export function levelOf<T extends WalkOption>(options: readonly T[], path: readonly number[]): T[] {
  return childrenOf(options, path.length ? path[path.length - 1] : null);
}

/** The option the path ends at, or undefined at the roots. */
export function nodeOf<T extends WalkOption>(options: readonly T[], path: readonly number[]): T | undefined {
  return path.length ? options.find((o) => o.id === path[path.length - 1]) : undefined;
}

/**
 * The path with every option that no longer exists (or no longer hangs where it did) cut off:
 * an admin may edit the tree while a customer is in it.
 */
export function validPath(options: readonly WalkOption[], path: readonly number[]): number[] {
  const out: number[] = [];
  let parent: number | null = null;
  for (const id of path) {
    const o = options.find((x) => x.id === id);
    if (!o || o.parentId !== parent) break;
    out.push(id);
    parent = id;
  }
  return out;
}

/** One step of the walk. */
export type WalkStep<T extends WalkOption = WalkOption> =
  /** Show the menu of `path`'s level (after back, an invalid reply, or a reset). */
  | { type: "menu"; path: number[]; reason: "back" | "invalid" | "reset" }
  /** A text option with children: open its level. */
  | { type: "open"; option: T; path: number[] }
  /** A leaf text option: send its message and media, stay on the level. */
  | { type: "text"; option: T; path: number[] }
  /** A queue, attendent or n8n option: the caller acts on it. */
  | { type: "act"; option: T; path: number[] };

/** Walks one reply from `path` through `options` (one queue's); see the module doc. */
export function walk<T extends WalkOption>(
  options: readonly T[],
  path: readonly number[],
  reply: string,
  resetOnInvalid: boolean,
): WalkStep<T> {
  const here = validPath(options, path);
  if (isBack(reply)) return { type: "menu", path: here.slice(0, -1), reason: "back" };
  const level = levelOf(options, here);
  const option = pickByReply(reply, level, (o) => o.option, (o) => o.title);
  if (!option) {
    return resetOnInvalid ? { type: "menu", path: [], reason: "reset" } : { type: "menu", path: here, reason: "invalid" };
  }
  if (option.queueType !== "text") return { type: "act", option, path: here };
  const below = childrenOf(options, option.id);
  return below.length ? { type: "open", option, path: [...here, option.id] } : { type: "text", option, path: here };
}

/** One line of a menu: its number and title. */
export interface MenuEntry {
  n: number;
  title: string;
}

/** The entries of a level, plus "0 - Voltar" below the roots. */
export function menuEntries(level: readonly WalkOption[], withBack: boolean, backTitle: string): MenuEntry[] {
  const entries = level.map((o) => ({ n: o.option, title: o.title }));
  return withBack ? [...entries, { n: 0, title: backTitle }] : entries;
}

/** The menu as text: the header, a blank line, then "*1* - Title" lines. */
export function menuText(header: string, entries: readonly MenuEntry[]): string {
  const lines = entries.map((e) => `*${e.n}* - ${e.title}`);
  return [header.trim(), "", ...lines].join("\n").trim();
}

/** A WhatsApp list message (chatBotType "list"); channels that cannot show one send the text. */
export interface MenuList {
  body: string;
  button: string;
  sections: { title: string; rows: { id: string; title: string; description?: string }[] }[];
}

/** WhatsApp's limits: 10 rows in a list, 24 characters a row title, 20 the button. */
export const LIST_MAX_ROWS = 10;
const ROW_TITLE_MAX = 24;

/**
 * The menu as a list message, or null when it cannot be one (no entries, or more rows than
 * WhatsApp allows: the text menu is sent alone). A row's id is its number, so a list reply
 * is read like a typed one; a title cut to fit keeps the whole title as the description.
 */
export function menuList(header: string, entries: readonly MenuEntry[], button: string, section: string): MenuList | null {
  if (entries.length === 0 || entries.length > LIST_MAX_ROWS) return null;
  return {
    body: header.trim() || button,
    button: button.slice(0, 20),
    sections: [{
      title: section.slice(0, ROW_TITLE_MAX),
      rows: entries.map((e) => {
        const full = e.title.trim() || String(e.n);
        return full.length > ROW_TITLE_MAX
          ? { id: String(e.n), title: full.slice(0, ROW_TITLE_MAX - 1) + "…", description: full.slice(0, 72) }
          : { id: String(e.n), title: full };
      }),
    }],
  };
}
