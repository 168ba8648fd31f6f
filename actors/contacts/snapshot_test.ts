/**
 * The contacts' snapshot (record_snapshot.ts) through the real actor on a file store: random
 * creates, edits, deletes, merges and imports, with restarts between them (a close stops a
 * save that is running half-way, as a crash would). After every restart the actor's contacts
 * must be exactly the records in KV, and most restarts must have come from a snapshot.
 */
import assert from "node:assert/strict";
import type { Contact } from "../../domain/contact.ts";
import { ActorSystem } from "../_runtime/system.ts";
import { seededRandom, waitFor } from "../_runtime/testing.ts";
import { contactsActor } from "./actor.ts";
import type { ContactsActorState } from "./snapshot.ts";

const COMPANY = 7;

async function open(path: string, minRecords: number) {
  const kv = await Deno.openKv(path);
  const system = new ActorSystem(kv, { snapshotMinRecords: minRecords });
  system.register(contactsActor);
  const actor = system.ref(contactsActor, COMPANY);
  const close = async () => {
    await system.close();
    kv.close();
    await system.listening.catch(() => {});
  };
  return { kv, system, actor, close };
}

async function stored(kv: Deno.Kv): Promise<Contact[]> {
  return await Array.fromAsync(kv.list<Contact>({ prefix: ["contact", COMPANY] }), (e) => e.value);
}

function byId(contacts: Iterable<Contact>): Contact[] {
  return [...contacts].sort((a, b) => a.id - b.id);
}

Deno.test("contacts: random changes and restarts, the snapshot and its marks always give back what KV holds", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-contact-snapshot-" });
  const path = `${dir}/kv`;
  const random = seededRandom(23);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  let number = 5511900000000;
  const row = () => ({ name: `Cliente ${Math.floor(random() * 1e6)}`, number: String(++number) });
  let fromSnapshot = 0;
  try {
    for (let round = 0; round < 12; round++) {
      const { kv, actor, close } = await open(path, 30);
      try {
        const state = await actor.peek<ContactsActorState>();
        assert.deepEqual(byId(state.contacts.values()), byId(await stored(kv)), `round ${round}: state = KV`);
        if (state.snap.gen > 0) fromSnapshot++;
        await actor.ask("snapshotIfDue", null);
        for (let step = 0; step < 60; step++) {
          const ids = [...state.contacts.keys()];
          const roll = random();
          if (roll < 0.3 || ids.length < 4) await actor.ask("create", row());
          else if (roll < 0.55) await actor.ask("update", { id: pick(ids), patch: { name: `Novo ${step}`, email: `${step}@x.com` } });
          else if (roll < 0.65) await actor.ask("remove", [pick(ids), pick(ids)]);
          else if (roll < 0.75) {
            const [fromId, intoId] = [pick(ids), pick(ids)];
            if (fromId !== intoId) await actor.ask("merge", { fromId, intoId });
          } else if (roll < 0.85) await actor.ask("createMany", Array.from({ length: 1 + Math.floor(random() * 25) }, row));
          else if (roll < 0.9) {
            // A seeder's new record, written around the actor: a load must still find it.
            const id = state.counter + 1000 + step;
            await kv.set(["contact", COMPANY, id], { ...state.contacts.get(pick(ids))!, id, number: String(++number) });
          }
          // Let a running save go on between steps now and then (or be cut by the close).
          if (random() < 0.2) await new Promise((resolve) => setTimeout(resolve, 5));
        }
        if (round % 4 === 3) await waitFor(() => !state.snap.saving, "the save to end");
      } finally {
        await close();
      }
    }
    const { kv, actor, close } = await open(path, 30);
    try {
      const state = await actor.peek<ContactsActorState>();
      assert.deepEqual(byId(state.contacts.values()), byId(await stored(kv)), "last start: state = KV");
      assert.ok(state.contacts.size > 200, `${state.contacts.size} contacts`);
    } finally {
      await close();
    }
    assert.ok(fromSnapshot >= 8, `${fromSnapshot} of 12 starts loaded a snapshot`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
