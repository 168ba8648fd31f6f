/** The contacts store (actors/contacts) driven directly on a real server's actor system. */
import assert from "node:assert/strict";
import {
  contactsOf,
  findContactByNumber,
  findOrCreateContact,
  getContact,
  mergeContacts,
  pageContacts,
  setWallet,
} from "../actors/contacts/mod.ts";
import { withServer } from "./helpers/server.ts";

Deno.test("findOrCreateContact() creates one contact per number under 100 concurrent calls", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    const events: unknown[] = [];
    const stop = server.deps.bus.subscribe((e) => {
      if (e.channel === `company-${companyId}-contact`) events.push(e.data);
    });
    const calls = Array.from({ length: 100 }, (_, i) =>
      findOrCreateContact(system, companyId, {
        number: `+55 (11) 90000-00${String(i % 10).padStart(2, "0")}`,
        name: `Cliente ${i % 10}`,
        isGroup: false,
      }));
    const results = await Promise.all(calls);
    stop();
    assert.equal(results.filter((r) => r.created).length, 10);
    assert.equal(new Set(results.map((r) => r.contact.id)).size, 10);
    assert.equal((await contactsOf(system, companyId)).size, 10);
    assert.equal(results[0].contact.number, "5511900000000");
    assert.equal(events.filter((e) => (e as { action: string }).action === "create").length, 10);
    const found = await findContactByNumber(system, companyId, "55 11 90000-0003");
    assert.equal(found?.name, "Cliente 3");

    system.passivateAll();
    const again = await findContactByNumber(system, companyId, "5511900000003");
    assert.equal(again?.id, found?.id, "the store reloads from KV after passivation");
  });
});

Deno.test("findOrCreateContact() keys a LID-only sender by lid and mergeContacts() folds it into the number", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    const lidOnly = await findOrCreateContact(system, companyId, {
      number: "123456789012345@lid",
      name: "Maria",
      isGroup: false,
    });
    assert.equal(lidOnly.created, true);
    assert.equal(lidOnly.contact.number, "");
    assert.equal(lidOnly.contact.lid, "123456789012345");
    const sameLid = await findOrCreateContact(system, companyId, {
      number: "",
      lid: "123456789012345@lid",
      name: "Maria",
      isGroup: false,
    });
    assert.equal(sameLid.created, false);
    assert.equal(sameLid.contact.id, lidOnly.contact.id);

    const real = await findOrCreateContact(system, companyId, {
      number: "5511988887777",
      name: "Maria Souza",
      isGroup: false,
    });
    assert.equal(real.created, true);
    const events: Array<Record<string, unknown>> = [];
    const stop = server.deps.bus.subscribe((e) => {
      if (e.channel === `company-${companyId}-contact`) {
        events.push(e.data as Record<string, unknown>);
      }
    });
    const merged = await mergeContacts(system, companyId, lidOnly.contact.id, real.contact.id);
    stop();
    assert.equal(merged.id, real.contact.id);
    assert.equal(merged.lid, "123456789012345");
    assert.equal(merged.number, "5511988887777");
    assert.equal(await getContact(system, companyId, lidOnly.contact.id), undefined);
    assert.deepEqual(events[0], {
      action: "delete",
      contactId: lidOnly.contact.id,
      mergedInto: real.contact.id,
    });
    const byLid = await findOrCreateContact(system, companyId, {
      number: "",
      lid: "123456789012345",
      name: "Maria",
      isGroup: false,
    });
    assert.equal(byLid.contact.id, real.contact.id);
  });
});

Deno.test("setWallet() and pageContacts() page in name order with search", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    for (const name of ["Zeca", "Ágata", "bruno", "Carla"]) {
      await findOrCreateContact(system, companyId, {
        number: `55119${String(name.length).padStart(4, "0")}${name.charCodeAt(0)}0`,
        name,
        isGroup: false,
      });
    }
    const page = await pageContacts(system, companyId, { offset: 0, limit: 3 });
    assert.deepEqual(page.contacts.map((c) => c.name), ["Ágata", "bruno", "Carla"]);
    assert.equal(page.count, 4);
    assert.equal(page.hasMore, true);
    const search = await pageContacts(system, companyId, {
      searchParam: "aga",
      offset: 0,
      limit: 20,
    });
    assert.deepEqual(search.contacts.map((c) => c.name), ["Ágata"]);
    const zeca = page.count && (await pageContacts(system, companyId, {
      searchParam: "zeca",
      offset: 0,
      limit: 1,
    })).contacts[0];
    assert.ok(zeca);
    const inWallet = await setWallet(system, companyId, zeca.id, 7);
    assert.equal(inWallet.walleteUserId, 7);
  });
});
