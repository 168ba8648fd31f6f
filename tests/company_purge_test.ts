import assert from "node:assert/strict";
import { legacyProviderKey } from "../actors/messages/keys.ts";
import { companyMediaDir } from "../actors/messages/media_files.ts";
import { isTenantActorId, tenantPrefixes } from "../actors/tenancy/purge.ts";
import { makeUser } from "./helpers/fixtures.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { withServer } from "./helpers/server.ts";

/** Every KV key that belongs to company `id` by the tenant key convention (DESIGN §3). */
async function keysOfCompany(kv: Deno.Kv, id: number): Promise<Deno.KvKey[]> {
  const found: Deno.KvKey[] = [];
  for await (const { key } of kv.list({ prefix: [] })) {
    const tenant = key[1] === id || (key[0] === "counter" && key[2] === id) ||
      (key[0] === "timer" && isTenantActorId(id, String(key[2])));
    if (tenant) found.push(key);
  }
  return found;
}

Deno.test("DELETE /companies/:id purges every tenant key, its actors and its tokens", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const created = await owner.post("/companies", {
      name: "Purgada",
      email: "contato@purgada.local",
      planId: server.demo!.planId,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: number = created.body.id;
    const { client: admin } = await makeUser(server, id, { profile: "admin" });
    const queue = await admin.post("/queue", { name: "Fila", color: "#123456", prioridade: 0 });
    assert.equal(queue.status, 200, JSON.stringify(queue.body));
    assert.equal((await admin.post("/tags", { name: "Etiqueta" })).status, 200);
    const inbound = inboundText(freshNumber(), "olá");
    const { ticketId, messageId } = await receive(server, inbound, id);
    assert.equal((await admin.get(`/tickets/${ticketId}`)).status, 200);
    assert.equal((await admin.get("/contacts")).status, 200);

    const { kv, system } = server.deps;
    // What a store written before the provider log holds for the same message.
    await kv.set(legacyProviderKey(id, inbound.providerId), [ticketId, messageId]);
    const before = await keysOfCompany(kv, id);
    const kinds = new Set(before.map((k) => String(k[0])));
    for (const kind of ["queue", "tag", "contact", "ticket", "message", "provider_log", "message_by_provider", "whatsapp"]) {
      assert.ok(kinds.has(kind), `fixture wrote no ${kind} key: ${[...kinds]}`);
    }
    const demoKeys = (await keysOfCompany(kv, server.demo!.companyId)).length;
    const mediaDir = companyMediaDir(server.deps.config.dataDir, id);
    await Deno.mkdir(mediaDir, { recursive: true });
    await Deno.writeTextFile(`${mediaDir}/foto.txt`, "x");

    assert.equal((await owner.delete(`/companies/${id}`)).status, 200);

    assert.deepEqual(await keysOfCompany(kv, id), []);
    for (const prefix of tenantPrefixes(system, id)) {
      assert.equal((await Array.fromAsync(kv.list({ prefix }))).length, 0, `left under ${prefix}`);
    }
    assert.equal((await keysOfCompany(kv, server.demo!.companyId)).length, demoKeys);
    await assert.rejects(Deno.stat(mediaDir), Deno.errors.NotFound);
    for (const path of ["/queue", "/tags", `/tickets/${ticketId}`, "/contacts"]) {
      const after = await admin.get(path);
      assert.ok(after.status === 401 || after.status === 403, `${path} answered ${after.status}`);
    }
    assert.equal((await owner.get(`/companies/${id}`)).status, 404);
  });
});

Deno.test("DELETE /companies/:id purges the company's audit log and leaves other companies' logs", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    await server.login("admin@demo.local"); // a login entry in the demo company's log
    const created = await owner.post("/companies", {
      name: "Auditada",
      email: "contato@auditada.local",
      planId: server.demo!.planId,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: number = created.body.id;
    // The company's creation is in its own log; its admin's login adds one by that user.
    await makeUser(server, id, { profile: "admin" });
    const { kv } = server.deps;
    const auditKeys = async (companyId: number) =>
      [
        ...await Array.fromAsync(kv.list({ prefix: ["audit", companyId] }), (e) => e.key),
        ...await Array.fromAsync(kv.list({ prefix: ["audit_by_user", companyId] }), (e) => e.key),
      ];
    const kinds = new Set((await auditKeys(id)).map((k) => String(k[0])));
    assert.deepEqual([...kinds].sort(), ["audit", "audit_by_user"], "the fixture wrote the log and its user index");
    const demoLog = await auditKeys(server.demo!.companyId);
    assert.ok(demoLog.length > 0, "the demo company has a log of its own");

    assert.equal((await owner.delete(`/companies/${id}`)).status, 200);

    assert.deepEqual(await auditKeys(id), []);
    const after = await auditKeys(server.demo!.companyId);
    for (const key of demoLog) assert.ok(after.some((k) => JSON.stringify(k) === JSON.stringify(key)), `kept ${key}`);
  });
});
