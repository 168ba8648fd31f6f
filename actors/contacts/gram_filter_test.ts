import assert from "node:assert/strict";
import { seededRandom as random } from "../_runtime/testing.ts";
import { buildContact, contactMatcher, contactNeedles, contactSearchText } from "../../domain/contact.ts";
import { BLOCK, GramFilter } from "./gram_filter.ts";
import { buildState, type ContactsState, dropContact, putContact, putMany } from "./state.ts";

/** The ids a term matches, by testing every search text (what the filter must never miss). */
function scan(state: ContactsState, term: string): number[] {
  const matches = contactMatcher(term);
  return state.byName.filter((_, i) => matches(state.searchTexts[i])).sort((a, b) => a - b);
}

/** The ids in the blocks the filter names for any of the term's needles. */
function narrowed(state: ContactsState, term: string): number[] | undefined {
  const blocks = new Set<number>();
  for (const needle of contactNeedles(term)) {
    const some = state.grams.candidates(needle);
    if (!some) return undefined;
    for (const b of some) blocks.add(b);
  }
  return state.byName.filter((id) => blocks.has(Math.floor(id / BLOCK)));
}

Deno.test("GramFilter names every block that holds a term, few that do not, and nothing for an absent trigram", () => {
  const grams = new GramFilter();
  grams.add(3, "ana souza\u00015511999990000\u0001");
  grams.add(BLOCK * 40 + 7, "bruno\u0001\u0001bruno@x.com");
  assert.deepEqual(grams.candidates("souza"), [0]);
  assert.deepEqual(grams.candidates("bruno@"), [40], "the blocks grow past the first 32");
  assert.deepEqual(grams.candidates("reembolso"), []);
  assert.equal(grams.candidates("ana")?.length, 1);
  assert.equal(grams.candidates("an"), undefined, "two characters narrow nothing");
  assert.deepEqual(grams.candidates("a s"), [0], "spaces are characters too");
});

Deno.test("the filter never misses a contact the full scan finds, through puts, renames, drops and a bulk merge", () => {
  const next = random(11);
  const names = ["Ana", "Bruno", "Cárla", "Diego", "Élisa", "Fábio", "Gabi", "Hugo"];
  const make = (id: number) =>
    buildContact(id, 1, {
      name: `${names[Math.floor(next() * 8)]} ${Math.floor(next() * 1000)}`,
      number: `55${11 + Math.floor(next() * 80)}9${String(Math.floor(next() * 1e8)).padStart(8, "0")}`,
      email: next() < 0.3 ? `c${id}@loja.com` : "",
    }, 0);
  const state = buildState(1, Array.from({ length: 3000 }, (_, i) => make(i + 1)), 3000);
  for (let n = 0; n < 500; n++) putContact(state, make(1 + Math.floor(next() * 4000)));
  for (let n = 0; n < 300; n++) dropContact(state, 1 + Math.floor(next() * 4000));
  putMany(state, Array.from({ length: 200 }, (_, i) => make(5000 + i)));
  const terms = ["ana", "carla", "élisa", "elisa", "fábio 12", "55119", "(55) 11 9", "loja", "c12@", "zzz", "gabi 9", "hugo 99"];
  for (const term of terms) {
    const all = scan(state, term);
    const some = narrowed(state, term);
    if (some === undefined) continue;
    const inBlocks = new Set(some);
    for (const id of all) assert.ok(inBlocks.has(id), `${term}: contact ${id} is in a named block`);
  }
  assert.ok(narrowed(state, "zzz")!.length === 0, "a term in no text names no block");
  // The texts by id are the name order's, and nothing is left of a dropped contact.
  state.byName.forEach((id, i) => assert.equal(state.textById[id], state.searchTexts[i]));
  const live = new Set(state.byName);
  state.textById.forEach((text, id) => assert.ok(text === undefined || live.has(id), `contact ${id} was dropped`));
  // A contact renamed away still leaves its block named (bits are only set): never a miss.
  const renamed = { ...state.contacts.get(state.byName[0])!, name: "Zulmira Quintal" };
  putContact(state, renamed);
  assert.ok(narrowed(state, "zulmira")!.includes(renamed.id));
  assert.ok(contactSearchText(renamed).includes("zulmira"));
});
