import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { SocketPool } from "./helpers/ws.ts";

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

Deno.test("wasupport: super sets the support number, every user of every company reads it, others may not write it", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.get("/settings/wasupport")).body.value, "", "no number until super sets one");
    assert.equal((await admin.put("/settings/wasupport", { value: "5511999990000" })).status, 403);
    const bad = await owner.put("/settings/wasupport", { value: "12345" });
    assert.equal(bad.status, 400);
    assert.match(bad.body.fields.value, /10 to 15 digits/);
    assert.equal((await owner.put("/settings/wasupport", { value: "+55 11 99999-0000" })).status, 200);
    assert.equal((await agent.get("/settings/wasupport")).body.value, "+55 11 99999-0000");
    const me = await agent.get("/auth/me");
    const settings = me.body.company.settings as { key: string; value: string }[];
    assert.equal(settings.find((s) => s.key === "wasupport")?.value, "+55 11 99999-0000", "the session carries it");
  });
});

Deno.test("company-help: help changes reach the sockets of every company", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const owner = await server.login("super@balcao.local");
      const agent = await server.login("agent@demo.local");
      const ws = await pool.connect(agent.token!);
      const created = (await owner.post("/helps", { title: "Filas", description: "", video: "dQw4w9WgXcQ" })).body;
      const frame = await ws.event("company-help", (d) => d.action === "create");
      assert.equal((frame.data as { record: { title: string } }).record.title, "Filas");
      await owner.delete(`/helps/${created.id}`);
      await ws.event("company-help", (d) => d.action === "delete" && d.id === created.id);
    } finally {
      await pool.closeAll();
    }
  });
});
