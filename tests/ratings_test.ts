/** The ratings API (spec 002 §2.11, §5, §7): the company's surveys, their validations and list. */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";

const survey = {
  name: "Atendimento",
  message: "Como você avalia o atendimento?",
  geral: true,
  options: [{ name: "Ruim", value: 1 }, { name: "Bom", value: "5" }],
};

Deno.test("POST/GET/PUT/DELETE /ratings keep a company's surveys", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const created = await agent.post("/ratings", survey);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    assert.equal(created.body.userId, agentId);
    assert.deepEqual(created.body.options, [{ name: "Ruim", value: 1 }, { name: "Bom", value: 5 }]);
    const id = created.body.id;
    assert.equal((await agent.get(`/ratings/${id}`)).body.name, "Atendimento");

    const edited = await agent.put(`/ratings/${id}`, { geral: false, options: [{ name: "Nota máxima", value: 10 }] });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.geral, false);
    assert.equal(edited.body.message, survey.message, "fields not sent keep their values");
    assert.deepEqual(edited.body.options, [{ name: "Nota máxima", value: 10 }]);

    assert.equal((await agent.delete(`/ratings/${id}`)).status, 200);
    assert.equal((await agent.get(`/ratings/${id}`)).status, 404);
    assert.equal((await agent.get(`/ratings/${id}`)).body.error, "ERR_NO_RATING_FOUND");
    assert.equal((await agent.delete(`/ratings/${id}`)).status, 404);
  });
});

Deno.test("POST /ratings refuses a short name, an empty message and a non-numeric value with the spec's texts", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const short = await admin.post("/ratings", { ...survey, name: "ab" });
    assert.equal(short.status, 400);
    assert.equal(short.body.fields.name, "nome muito curto");
    const noMessage = await admin.post("/ratings", { ...survey, message: "" });
    assert.equal(noMessage.body.fields.message, "Obrigatório");
    const text = await admin.post("/ratings", { ...survey, options: [{ name: "x", value: "dez" }] });
    assert.equal(text.status, 400);
    assert.equal(text.body.fields["options.0.value"], "valor deve ser numérico");
    assert.equal((await admin.put("/ratings/999", survey)).status, 404);
  });
});

Deno.test("GET /ratings/ searches and pages; GET /ratings/list lists by name; other companies see none", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    for (let i = 1; i <= 23; i++) {
      assert.equal((await admin.post("/ratings", { ...survey, name: `Pesquisa ${String(i).padStart(2, "0")}` })).status, 200);
    }
    await admin.post("/ratings", { ...survey, name: "Avaliação pós-venda" });
    const first = await admin.get("/ratings/?pageNumber=1");
    assert.equal(first.body.ratings.length, 20);
    assert.equal(first.body.hasMore, true);
    assert.equal(first.body.ratings[0].name, "Avaliação pós-venda", "newest first");
    const second = await admin.get("/ratings?pageNumber=2");
    assert.equal(second.body.ratings.length, 4);
    assert.equal(second.body.hasMore, false);
    const found = await admin.get(`/ratings?searchParam=${encodeURIComponent("pos venda")}`);
    assert.deepEqual(found.body.ratings.map((r: { name: string }) => r.name), []);
    const accents = await admin.get(`/ratings?searchParam=${encodeURIComponent("pós-VENDA")}`);
    assert.equal(accents.body.ratings.length, 1);
    const list = await admin.get("/ratings/list");
    assert.equal(list.body.length, 24);
    assert.equal(list.body[0].name, "Avaliação pós-venda");

    const other = await createTenant(server, "Outra Empresa");
    assert.deepEqual((await other.admin.get("/ratings/list")).body, []);
    assert.equal((await other.admin.get(`/ratings/${list.body[0].id}`)).status, 404);
  });
});
