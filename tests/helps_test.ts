import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";

Deno.test("helps: super writes, everyone logged in reads, unknown ids are ERR_NO_HELP_FOUND", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    assert.equal((await server.client().get("/helps/list")).status, 401);
    assert.equal((await admin.post("/helps", { title: "Como", video: "abc" })).status, 403);

    const bad = await owner.post("/helps", { title: "" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.fields.title, "Required");
    const created = await owner.post("/helps", {
      title: "Relatórios semanais",
      description: "Exporte os relatórios",
      video: "dQw4w9WgXcQ",
    });
    assert.equal(created.status, 201);
    const id = created.body.id;

    const list = await agent.get("/helps/list");
    assert.equal(list.status, 200);
    assert.equal(list.body.at(-1).title, "Relatórios semanais");
    const paged = await agent.get("/helps?searchParam=RELATORIOS");
    assert.equal(paged.body.count, 1);
    assert.equal(paged.body.hasMore, false);
    assert.equal(paged.body.records[0].video, "dQw4w9WgXcQ");
    assert.equal((await agent.get("/helps?searchParam=zzz")).body.count, 0);

    assert.equal((await agent.put(`/helps/${id}`, { title: "X", video: "" })).status, 403);
    const updated = await owner.put(`/helps/${id}`, { title: "Conectar", description: "", video: "v2" });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.video, "v2");
    assert.equal((await owner.put("/helps/999", { title: "Nada" })).status, 404);

    assert.equal((await admin.delete(`/helps/${id}`)).status, 403);
    assert.equal((await owner.delete(`/helps/${id}`)).status, 200);
    const gone = await agent.get(`/helps/${id}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error, "ERR_NO_HELP_FOUND");
    assert.equal((await owner.delete(`/helps/${id}`)).status, 404);
  });
});
