/** Unit tests of the contacts indexes (no KV). */
import assert from "node:assert/strict";
import { seededRandom } from "../_runtime/testing.ts";
import { buildContact, type Contact, contactSearchText } from "../../domain/contact.ts";
import { buildState, dropContact, emptyState, putContact, putMany } from "./state.ts";

const contact = (id: number, name: string, number = `55119${String(id).padStart(8, "0")}`) =>
  buildContact(id, 1, { name, number }, 0);

Deno.test("putContact() keeps ids, keys and search texts in name order through renames and drops", () => {
  const state = buildState(1, [contact(3, "Carla"), contact(1, "Ágata"), contact(2, "bruno")], 0);
  assert.deepEqual(state.byName, [1, 2, 3]);
  assert.equal(state.counter, 3);
  putContact(state, contact(4, "Beatriz"));
  assert.deepEqual(state.byName, [1, 4, 2, 3]);
  putContact(state, { ...contact(1, "Zuleica"), number: "5511900000001" });
  assert.deepEqual(state.byName, [4, 2, 3, 1]);
  assert.deepEqual(state.searchTexts.map((t) => t.split("\u0001")[0]), ["beatriz", "bruno", "carla", "zuleica"]);
  assert.ok(state.searchTexts[3].startsWith("zuleica"));
  dropContact(state, 2);
  assert.deepEqual(state.byName, [4, 3, 1]);
  assert.equal(state.searchTexts.length, 3);
  assert.equal(state.byNumber.get("5511900000002"), undefined);
  assert.equal(state.byNumber.get("5511900000001"), 1);
});

Deno.test("putContact() orders equal names by id", () => {
  const state = buildState(1, [contact(5, "Ana"), contact(2, "Ana")], 0);
  putContact(state, contact(3, "ana"));
  assert.deepEqual(state.byName, [2, 3, 5]);
});

Deno.test("putMany() merges a large batch into the name order like single puts would", () => {
  const names = Array.from({ length: 300 }, (_, i) => `N${(i * 7919) % 1000}`);
  const one = buildState(1, [contact(1, "M"), contact(2, "zz")], 0);
  const many = buildState(1, [contact(1, "M"), contact(2, "zz")], 0);
  const batch = names.map((n, i) => contact(i + 3, n));
  for (const c of batch) putContact(one, c);
  putMany(many, batch);
  assert.deepEqual(many.byName, one.byName);
  assert.deepEqual(many.searchTexts, one.searchTexts);
  assert.equal(many.byNumber.size, 302);
});

Deno.test("buildState() keeps a stored record's every field while rebuilding it as one literal, and its search text flat", () => {
  // A record as KV's deserializer gives it: fields set one by one, its own "whatsapp" string.
  const stored = JSON.parse(JSON.stringify({ ...contact(7, "Élida", "5511988887777"), email: "E@X.COM", channel: "whats" + "app" }));
  const state = buildState(1, [stored], 0);
  const kept = state.contacts.get(7)!;
  assert.deepEqual(kept, stored);
  assert.notEqual(kept, stored);
  assert.deepEqual(Object.keys(kept), Object.keys(contact(7, "x")));
  assert.equal(state.searchTexts[0], "elida\u00015511988887777\u0001e@x.com");
  const withInfo = { ...contact(8, "Ivo"), extraInfo: [{ name: "CPF", value: "1" }] };
  assert.deepEqual(buildState(1, [withInfo], 0).contacts.get(8)!.extraInfo, [{ name: "CPF", value: "1" }]);
});

Deno.test("the name order holds for names that are prefixes of others, equal names and a stray \\u0001, through puts and drops", () => {
  const names = ["ana", "Ana Maria", "ana", "an", "Ána", "b\u0001x", "b", "anab", ""];
  const state = buildState(1, names.slice(0, 4).map((n, i) => contact(i + 1, n)), 0);
  names.slice(4).forEach((n, i) => putContact(state, contact(i + 5, n)));
  const keyOf = (t: string) => t.split("\u0001")[0];
  const order = (s: typeof state) => s.searchTexts.map((t, i) => [keyOf(t), s.byName[i]] as const);
  const sorted = [...order(state)].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  assert.deepEqual(order(state), sorted);
  for (let id = 1; id <= names.length; id++) {
    dropContact(state, id);
    assert.ok(!state.byName.includes(id), `contact ${id} left the name order`);
  }
  assert.equal(state.searchTexts.length, 0);
});

Deno.test("buildState() builds what putContact() of each contact in name order builds: order, maps, shared numbers, trigrams", () => {
  const next = seededRandom(41);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  // Names that tie on long prefixes, differ past 21 characters, hold characters of 126 and
  // more (~, ø, CJK, an emoji's surrogates), are empty, or are prefixes of others.
  const stems = ["Ana", "ana maria da silva santos", "ana maria da silva sampaio", "Bruno Cliente", "~til", "øyvind", "北京 客户", "😀 smile", "", "zz"];
  const records = Array.from({ length: 2500 }, (_, i) => {
    const id = 1 + ((i * 7919) % 4000);
    const name = `${pick(stems)}${next() < 0.5 ? "" : ` ${Math.floor(next() * 30)}`}`;
    const number = next() < 0.1 ? "" : `5511${Math.floor(next() * 400)}`; // numbers shared by several
    const lid = next() < 0.3 ? `${Math.floor(next() * 100)}` : null;
    return { ...buildContact(id, 1, { name, number, lid }, 0), email: next() < 0.2 ? `X${id}@Loja.com` : "" };
  }).sort(() => next() - 0.5);
  const built = buildState(1, records, 10);
  const key = (c: Contact) => contactSearchText(c).split("\u0001")[0];
  const reference = emptyState(1);
  for (const c of [...records].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id))) putContact(reference, c);
  assert.deepEqual(built.byName, reference.byName);
  assert.deepEqual(built.searchTexts, reference.searchTexts);
  // The records by id in record order (the name order is byName's).
  assert.deepEqual([...built.contacts].sort((a, b) => a[0] - b[0]), [...reference.contacts].sort((a, b) => a[0] - b[0]));
  const sorted = (m: Iterable<[string, number]>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  assert.deepEqual(sorted(built.byNumber), sorted(reference.byNumber));
  assert.deepEqual(sorted(built.byLid), sorted(reference.byLid));
  assert.deepEqual(built.textById, reference.textById);
  assert.equal(built.counter, Math.max(...records.map((c) => c.id)));
  assert.equal(built.grams.size, reference.grams.size);
  const terms = new Set(["zzz", "qqq", "北京 ", "😀 s"]);
  for (const text of built.searchTexts) for (let i = 0; i + 3 <= text.length; i++) terms.add(text.slice(i, i + 3));
  for (const term of terms) assert.deepEqual(built.grams.candidates(term), reference.grams.candidates(term), term);
});
