/**
 * The name index built in the background (naming.ts): writes made while it is built end up
 * in it exactly as a build of the final records would have them, and through a real actor
 * system a large company's contact list and ticket search wait for it or say they are partial.
 */
import assert from "node:assert/strict";
import { buildContact, type Contact, contactMatcher, contactNeedles } from "../../domain/contact.ts";
import { seededRandom, withSystem } from "../_runtime/testing.ts";
import { contactsActor } from "./actor.ts";
import { contactIdsMatching, contactsByName, pageContacts } from "./mod.ts";
import { NAME_IN_BACKGROUND_FROM } from "./naming.ts";
import { BLOCK } from "./gram_filter.ts";
import { buildState, type ContactsState, coreState, dropContact, installNames, nameSteps, putContact, putMany } from "./state.ts";

const contact = (id: number, name: string, number = `55119${String(id).padStart(8, "0")}`) =>
  buildContact(id, 1, { name, number }, 0);

/** The texts by id as pairs, holes and undefined alike left out. */
const texts = (s: ContactsState) => s.textById.flatMap((text, id) => text === undefined ? [] : [[id, text] as const]);

/** Every contact the full scan finds for `term` is in a block the trigram filter names. */
function filterNeverMisses(s: ContactsState, term: string): void {
  const [needle] = contactNeedles(term);
  const blocks = s.grams.candidates(needle);
  assert.ok(blocks);
  const matches = contactMatcher(needle);
  let found = 0;
  s.byName.forEach((id, i) => {
    if (!matches(s.searchTexts[i])) return;
    found++;
    assert.ok(blocks.includes(Math.floor(id / BLOCK)), `${term}: contact ${id}`);
  });
  assert.ok(found > 0, `${term} matches some contact`);
}

Deno.test("writes during a name index build (puts, renames, drops, a bulk put) land in it as a build of the final records has them", () => {
  const random = seededRandom(17);
  const stems = ["Ana", "Bruno", "Carla", "Élida", "zé", ""];
  const named = (id: number) => contact(id, `${stems[id % stems.length]} ${Math.floor(random() * 40)}`);
  const records = Array.from({ length: 12_000 }, (_, i) => named(i + 1));
  const { state } = coreState(1, records, 0, false);
  state.naming = { startedAt: 0, done: Promise.resolve(), dirty: new Set() };
  const steps = nameSteps([...state.contacts.values()]);
  let writes = 0;
  let next = steps.next();
  while (!next.done) {
    // Between slices, as requests would come in between the background build's slices.
    if (random() < 0.8) {
      const roll = random();
      const id = 1 + Math.floor(random() * 12_200);
      if (roll < 0.4) putContact(state, named(id));
      else if (roll < 0.8) dropContact(state, id);
      else putMany(state, Array.from({ length: 40 }, (_, k) => named(12_200 + writes * 40 + k)));
      writes++;
    }
    next = steps.next();
  }
  assert.ok(writes > 15, `${writes} writes during the build`);
  assert.ok(state.naming.dirty.size > 15);
  installNames(state, next.value);
  assert.equal(state.naming, undefined);
  const reference = buildState(1, [...state.contacts.values()], 0);
  assert.deepEqual(state.byName, reference.byName);
  assert.deepEqual(state.searchTexts, reference.searchTexts);
  assert.deepEqual(texts(state), texts(reference));
  for (const term of ["ana", "élida", "zé 1", "5511900001", "carla 3"]) filterNeverMisses(state, term);
  // And the index keeps itself up to date afterwards, as before.
  putContact(state, contact(99_999, "Aaron"));
  dropContact(state, 7);
  assert.deepEqual(state.byName, buildState(1, [...state.contacts.values()], 0).byName);
});

Deno.test("a large company's contacts: lists wait for the background name index, a ticket search during it is partial, writes meanwhile are kept", async () => {
  await withSystem(async ({ system, kv }) => {
    system.register(contactsActor);
    const company = 4;
    const count = NAME_IN_BACKGROUND_FROM + 10;
    for (let at = 1; at <= count; at += 1000) {
      const op = kv.atomic();
      for (let id = at; id < Math.min(count + 1, at + 1000); id++) {
        op.set(["contact", company, id], { ...buildContact(id, company, { name: `Cliente ${id}`, number: `5521${id}` }, 0) });
      }
      await op.commit();
    }
    await kv.set(["counter", "contact", company], count);
    const actor = system.ref(contactsActor, company);
    const state = await actor.peek<ContactsState>();
    assert.ok(state.naming, "the name index is built in the background");
    assert.equal(state.contacts.size, count, "the records are in place at once");
    assert.equal(state.byNumber.get("552117"), 17, "and the number map");
    const during = await contactIdsMatching(system, company, "Cliente 17", 0);
    assert.deepEqual(during, { ids: [], partial: true });
    // Writes while it builds: a new contact that sorts first, a rename, a removal.
    const created = await actor.ask("create", { name: "Aaron", number: "5599" }) as Contact;
    await actor.ask("update", { id: 2, patch: { name: "Zuleica" } });
    await actor.ask("remove", [3]);
    const page = await pageContacts(system, company, { offset: 0, limit: 3 });
    assert.equal(state.naming, undefined, "the list waited for the index");
    assert.deepEqual(page.contacts.map((c) => c.name), ["Aaron", "Cliente 1", "Cliente 10"]);
    assert.equal(page.count, count);
    const all = await contactsByName(system, company);
    assert.equal(all.at(-1)!.name, "Zuleica");
    assert.ok(!all.some((c) => c.id === 3));
    const after = await contactIdsMatching(system, company, "aaron");
    assert.deepEqual(after, { ids: [created.id], partial: false });
    const reference = buildState(company, [...state.contacts.values()], 0);
    assert.deepEqual(state.byName, reference.byName);
  });
});
