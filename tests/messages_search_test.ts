/**
 * searchTicketIds(): the per-company inverted index of message words, built in the background
 * from start-up (or on a company's first search) and kept current from new messages; and
 * cross-company isolation of the messages API.
 */
import assert from "node:assert/strict";
import { searchTicketIds } from "../actors/messages/mod.ts";
import { messageSearch } from "../actors/messages/search_index.ts";
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";

Deno.test("searchTicketIds() finds tickets by folded words, keeps up with new messages, ignores short terms", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    const boleto = await receive(
      server,
      inboundText(freshNumber(), "Preciso da 2ª via do BOLETO, por favor"),
    );
    const entrega = await receive(server, inboundText(freshNumber(), "Cadê a entrega do pedido?"));
    const both = await receive(server, inboundText(freshNumber(), "boleto pago, e a entrega?"));

    assert.deepEqual(
      (await searchTicketIds(system, companyId, "boleto")).ids,
      new Set([boleto.ticketId, both.ticketId]),
    );
    assert.deepEqual((await searchTicketIds(system, companyId, "Cade")).ids, new Set([entrega.ticketId]));
    assert.deepEqual(
      (await searchTicketIds(system, companyId, "bol")).ids,
      new Set([boleto.ticketId, both.ticketId]),
    );
    assert.deepEqual((await searchTicketIds(system, companyId, "boleto entrega")).ids, new Set([both.ticketId]));
    assert.deepEqual((await searchTicketIds(system, companyId, "a e")).ids, new Set());
    assert.deepEqual((await searchTicketIds(system, companyId, "inexistente")).ids, new Set());

    // After the index exists, new messages (and edits) reach it from the bus.
    const late = await receive(server, inboundText(freshNumber(), "Nota fiscal atrasada"));
    assert.deepEqual((await searchTicketIds(system, companyId, "fiscal")).ids, new Set([late.ticketId]));
    await receive(server, inboundText(freshNumber(), "outra coisa", { providerId: "later-1" }));
    assert.ok(messageSearch(system).pairs > 0);
  });
});

Deno.test("searchTicketIds() builds while messages keep arriving and misses none", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const companyId = server.demo!.companyId;
    const before = await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) => receive(server, inboundText(freshNumber(), `pedido${i} palavrachave`)),
      ),
    );
    const [{ ids: found }, during] = await Promise.all([
      searchTicketIds(system, companyId, "palavrachave"),
      Promise.all(
        Array.from(
          { length: 10 },
          (_, i) => receive(server, inboundText(freshNumber(), `novo${i} palavrachave`)),
        ),
      ),
    ]);
    for (const r of before) assert.ok(found.has(r.ticketId));
    const after = (await searchTicketIds(system, companyId, "palavrachave")).ids;
    for (const r of [...before, ...during]) assert.ok(after.has(r.ticketId), `ticket ${r.ticketId}`);
  });
});

Deno.test("messages of one company are invisible to another (read, edit, delete, search)", async () => {
  await withServer(async (server) => {
    const { system } = server.deps;
    const demoId = server.demo!.companyId;
    const other = await createTenant(server, "Empresa Vizinha");
    const a = await receive(server, inboundText(freshNumber(), "segredo da demo"));

    const read = await other.admin.get(`/messages/${a.ticketId}`);
    assert.equal(read.status, 404);
    const edit = await other.admin.post(`/messages/edit/${a.messageId}`, { body: "invadido" });
    assert.equal(edit.status, 404);
    const del = await other.admin.delete("/messages/delete", { messages: [a.messageId] });
    assert.equal(del.status, 404);
    const search = await other.admin.get(`/messages/searchMessage/${a.ticketId}?searchedTerm=segredo`);
    assert.equal(search.status, 404);
    assert.deepEqual((await searchTicketIds(system, other.companyId, "segredo")).ids, new Set());
    assert.deepEqual((await searchTicketIds(system, demoId, "segredo")).ids, new Set([a.ticketId]));
  });
});

Deno.test("GET /tickets?searchParam finds a ticket by a word of its messages", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const hit = await receive(server, inboundText(freshNumber(), "meu reembolso não caiu"));
    await receive(server, inboundText(freshNumber(), "outro assunto"));
    await messageSearch(server.deps.system).whenReady(server.demo!.companyId);
    const found = await admin.get("/tickets?searchParam=reembolso&showAll=true&status=pending");
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.deepEqual(found.body.tickets.map((t: { id: number }) => t.id), [hit.ticketId]);
    assert.equal(found.body.partial, false);
  });
});
