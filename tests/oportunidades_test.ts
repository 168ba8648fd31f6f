/** Opportunities over real HTTP: CRUD, validation, paging and isolation. */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { demoTicket } from "./helpers/fixtures.ts";

Deno.test("/oportunidade CRUD validates the name and pages with search", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const bad = await agent.post("/oportunidade", { name: "x" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.name, "Too Short!");
    assert.equal((await agent.post("/oportunidade", {})).body.fields.name, "Required");
    for (let i = 1; i <= 21; i++) {
      assert.equal(
        (await agent.post("/oportunidade", { name: `Venda ${String(i).padStart(2, "0")}` })).status,
        200,
      );
    }
    const created = await agent.post("/oportunidade", { name: "Renovação anual" });
    const page = await agent.get("/oportunidade/?pageNumber=1");
    assert.equal(page.status, 200);
    assert.equal(page.body.oportunidades.length, 20);
    assert.equal(page.body.count, 22);
    assert.equal(page.body.hasMore, true);
    assert.equal((await agent.get("/oportunidade?pageNumber=2")).body.hasMore, false);
    const search = await agent.get("/oportunidade/?searchParam=renovacao");
    assert.deepEqual(search.body.oportunidades.map((o: { id: number }) => o.id), [created.body.id]);
    const edited = await agent.put(`/oportunidade/${created.body.id}`, {
      name: "Renovação bienal",
    });
    assert.equal(edited.body.name, "Renovação bienal");
    assert.equal(
      (await agent.get(`/oportunidade/${created.body.id}`)).body.name,
      "Renovação bienal",
    );
    assert.equal((await agent.delete(`/oportunidade/${created.body.id}`)).status, 200);
    assert.equal((await agent.get(`/oportunidade/${created.body.id}`)).status, 404);
  });
});

Deno.test("opportunities of another company answer 404", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const outsider = await server.login("super@balcao.local");
    const o = (await admin.post("/oportunidade", { name: "Privada" })).body;
    assert.equal((await outsider.get(`/oportunidade/${o.id}`)).status, 404);
    assert.equal((await outsider.put(`/oportunidade/${o.id}`, { name: "Hack" })).status, 404);
    assert.equal((await outsider.delete(`/oportunidade/${o.id}`)).status, 404);
    assert.equal((await outsider.get("/oportunidade/")).body.count, 0);
  });
});

Deno.test("GET /oportunidade/ counts the tickets linked through PUT /tickets/{id} oportunidadeId", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const venda = (await admin.post("/oportunidade", { name: "Venda" })).body;
    const outra = (await admin.post("/oportunidade", { name: "Outra" })).body;
    const a = await demoTicket(server, "5511966660001");
    const b = await demoTicket(server, "5511966660002");
    const counts = async () =>
      Object.fromEntries(
        ((await admin.get("/oportunidade/")).body.oportunidades as Array<{ name: string; ticketsCount: number }>)
          .map((o) => [o.name, o.ticketsCount]),
      );
    assert.deepEqual(await counts(), { Outra: 0, Venda: 0 });

    const linked = await admin.put(`/tickets/${a.id}`, { oportunidadeId: venda.id });
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    assert.equal(linked.body.oportunidadeId, venda.id);
    assert.equal(linked.body.status, a.status, "linking changes nothing else");
    await admin.put(`/tickets/${b.id}`, { oportunidadeId: venda.id });
    assert.deepEqual(await counts(), { Outra: 0, Venda: 2 });

    // Moving one ticket moves its count; unlinking (null) drops it.
    await admin.put(`/tickets/${b.id}`, { oportunidadeId: outra.id });
    assert.deepEqual(await counts(), { Outra: 1, Venda: 1 });
    await admin.put(`/tickets/${a.id}`, { oportunidadeId: null });
    assert.deepEqual(await counts(), { Outra: 1, Venda: 0 });

    // An opportunity of another company (or none) cannot be linked.
    const outsider = await server.login("super@balcao.local");
    // Ids count per company: the outsider's third opportunity has an id the demo company lacks.
    let foreign = { id: 0 };
    for (const name of ["Alheia 1", "Alheia 2", "Alheia 3"]) foreign = (await outsider.post("/oportunidade", { name })).body;
    assert.equal((await admin.get(`/oportunidade/${foreign.id}`)).status, 404);
    const refused = await admin.put(`/tickets/${a.id}`, { oportunidadeId: foreign.id });
    assert.equal(refused.status, 404);
    assert.equal((await admin.put(`/tickets/${a.id}`, { oportunidadeId: 99999 })).status, 404);
    assert.equal((await admin.get(`/tickets/${a.id}`)).body.oportunidadeId, null);
  });
});
