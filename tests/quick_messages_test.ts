/** Quick replies over real HTTP: validation, geral rules per role, media upload, isolation. */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { SocketPool } from "./helpers/ws.ts";

function mediaForm(name: string, bytes = new Uint8Array([1, 2, 3, 4])): FormData {
  const form = new FormData();
  form.append("file", new File([bytes], name));
  return form;
}

Deno.test("POST /quick-messages requires shortcode and a message unless a file comes", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const none = await agent.post("/quick-messages", { message: "Oi" });
    assert.equal(none.status, 400);
    assert.equal(none.body.fields.shortcode, "Obrigatório");
    const empty = await agent.post("/quick-messages", { shortcode: "oi", message: " " });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.fields.message, "Obrigatório");
    const ok = await agent.post("/quick-messages", { shortcode: "oi", message: "Olá!" });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.geral, false);
    assert.equal(ok.body.mediaUrl, null);
    const announced = await agent.post("/quick-messages", {
      shortcode: "foto",
      message: "",
      mediaName: "a.png",
    });
    assert.equal(announced.status, 200, "an attachment announced by mediaName excuses the message");
    const form = mediaForm("tabela.pdf");
    form.append("shortcode", "tabela");
    const withFile = await agent.post("/quick-messages", form);
    assert.equal(withFile.status, 200);
    assert.equal(withFile.body.mediaName, "tabela.pdf");
    assert.match(withFile.body.mediaUrl, /^\/media\//);
    const geral = await agent.post("/quick-messages", {
      shortcode: "g",
      message: "x",
      geral: true,
    });
    assert.equal(geral.status, 403, "only admin and supervisor set geral");
  });
});

Deno.test("GET /quick-messages/list gives the caller's and the general ones", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    await admin.post("/quick-messages", {
      shortcode: "boleto",
      message: "Segue o boleto",
      geral: true,
    });
    await supervisor.post("/quick-messages", {
      shortcode: "sup",
      message: "Privada do supervisor",
    });
    await agent.post("/quick-messages", { shortcode: "meu", message: "Minha" });
    const list = await agent.get(
      `/quick-messages/list?companyId=${server.demo!.companyId}&userId=1`,
    );
    assert.equal(list.status, 200);
    // The demo seeds the general replies ola, pix and horario.
    assert.deepEqual(
      list.body.map((q: { shortcode: string }) => q.shortcode),
      ["boleto", "horario", "meu", "ola", "pix"],
    );
    const page = await admin.get("/quick-messages/?searchParam=");
    assert.equal(page.body.count, 6, "managers see every reply in the table");
    const agentPage = await agent.get("/quick-messages");
    assert.equal(agentPage.body.count, 5);
    assert.equal((await agent.get("/quick-messages?searchParam=boleto")).body.count, 1);
  });
});

Deno.test("PUT/DELETE /quick-messages/{id}: a user only its own non-geral; managers any", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const supervisor = await server.login("supervisor@demo.local");
    const shared =
      (await admin.post("/quick-messages", { shortcode: "horario", message: "8h", geral: true }))
        .body;
    const mine = (await agent.post("/quick-messages", { shortcode: "ola", message: "Oi" })).body;
    const theirs =
      (await supervisor.post("/quick-messages", { shortcode: "s", message: "S" })).body;

    const edit = await agent.put(`/quick-messages/${mine.id}`, { message: "Olá, tudo bem?" });
    assert.equal(edit.status, 200);
    assert.equal(edit.body.message, "Olá, tudo bem?");
    assert.equal(edit.body.shortcode, "ola");
    assert.equal((await agent.put(`/quick-messages/${mine.id}`, { geral: true })).status, 403);
    assert.equal(
      (await agent.put(`/quick-messages/${mine.id}`, { shortcode: "" })).body.fields.shortcode,
      "Obrigatório",
    );
    assert.equal((await agent.put(`/quick-messages/${shared.id}`, { message: "x" })).status, 403);
    assert.equal((await agent.delete(`/quick-messages/${shared.id}`)).status, 403);
    assert.equal((await agent.get(`/quick-messages/${theirs.id}`)).status, 404);
    assert.equal((await agent.put(`/quick-messages/${theirs.id}`, { message: "x" })).status, 404);

    const promoted = await supervisor.put(`/quick-messages/${mine.id}`, { geral: true });
    assert.equal(promoted.body.geral, true);
    assert.equal((await agent.delete(`/quick-messages/${mine.id}`)).status, 403, "now general");
    assert.equal((await admin.delete(`/quick-messages/${theirs.id}`)).status, 200);
    assert.equal((await admin.get(`/quick-messages/${theirs.id}`)).status, 404);
  });
});

Deno.test("POST/DELETE /quick-messages/{id}/media-upload stores and removes the file", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const q =
      (await agent.post("/quick-messages", { shortcode: "catalogo", message: "Veja" })).body;
    const wrong = await agent.post(`/quick-messages/${q.id}/media-upload`, mediaForm("virus.exe"));
    assert.equal(wrong.status, 400);
    const up = await agent.post(`/quick-messages/${q.id}/media-upload`, mediaForm("catalogo.jpg"));
    assert.equal(up.status, 200);
    assert.equal(up.body.mediaName, "catalogo.jpg");
    const path = `${server.deps.config.dataDir}/company${
      server.demo!.companyId
    }/${up.body.mediaPath}`;
    assert.equal((await Deno.stat(path)).size, 4);
    const media = await fetch(server.url + up.body.mediaUrl);
    assert.equal(media.status, 200, "the signed URL serves the file");
    assert.equal((await media.arrayBuffer()).byteLength, 4);
    const gone = await agent.delete(`/quick-messages/${q.id}/media-upload`);
    assert.equal(gone.body.mediaPath, null);
    await assert.rejects(() => Deno.stat(path), Deno.errors.NotFound);
  });
});

Deno.test("quick messages of another company answer 404", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const outsider = await server.login("super@balcao.local");
    const q =
      (await admin.post("/quick-messages", { shortcode: "pix", message: "x", geral: true })).body;
    assert.equal((await outsider.get(`/quick-messages/${q.id}`)).status, 404);
    assert.equal((await outsider.put(`/quick-messages/${q.id}`, { message: "y" })).status, 404);
    assert.equal((await outsider.delete(`/quick-messages/${q.id}`)).status, 404);
    assert.equal((await outsider.get("/quick-messages/list")).body.length, 0);
  });
});

Deno.test("quick-message media: the server refuses other types by name and keeps a message or a file", async () => {
  await withServer(async (server) => {
    const agent = await server.login("agent@demo.local");
    const form = mediaForm("planilha.xlsx");
    form.append("shortcode", "planilha");
    const refused = await agent.post("/quick-messages", form);
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /planilha\.xlsx.*\.mp4 \.mp3 \.pdf \.txt \.png \.jpg \.jpeg/);
    assert.equal((await agent.get("/quick-messages?searchParam=planilha")).body.count, 0, "nothing stored");

    const onlyFile = await agent.post("/quick-messages", { shortcode: "foto", message: "", mediaName: "foto.PNG" });
    const up = await agent.post(`/quick-messages/${onlyFile.body.id}/media-upload`, mediaForm("foto.PNG"));
    assert.equal(up.status, 200, "extensions compare case-insensitively");
    const bare = await agent.delete(`/quick-messages/${onlyFile.body.id}/media-upload`);
    assert.equal(bare.status, 400, "removing the only content would leave an empty reply");
    assert.equal(bare.body.fields.message, "Obrigatório");
    assert.equal((await agent.get(`/quick-messages/${onlyFile.body.id}`)).body.mediaName, "foto.PNG");
    await agent.put(`/quick-messages/${onlyFile.body.id}`, { message: "Veja a foto" });
    const removed = await agent.delete(`/quick-messages/${onlyFile.body.id}/media-upload`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.mediaName, null);
  });
});

Deno.test("quick-message media: a user may not attach to or detach from a general reply", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const shared = (await admin.post("/quick-messages", { shortcode: "manual", message: "x", geral: true })).body;
    assert.equal((await agent.post(`/quick-messages/${shared.id}/media-upload`, mediaForm("a.pdf"))).status, 403);
    assert.equal((await admin.post(`/quick-messages/${shared.id}/media-upload`, mediaForm("a.pdf"))).status, 200);
    assert.equal((await agent.delete(`/quick-messages/${shared.id}/media-upload`)).status, 403);
  });
});

Deno.test("company-{id}-quickmessage reaches managers and the author with private replies, everyone with general ones", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const admin = await server.login("admin@demo.local");
      const supervisor = await server.login("supervisor@demo.local");
      const agent = await server.login("agent@demo.local");
      const [adminWs, supervisorWs, agentWs] = await Promise.all(
        [admin, supervisor, agent].map((c) => pool.connect(c.token!)),
      );
      const channel = `company-${server.demo!.companyId}-quickmessage`;
      const own = (await agent.post("/quick-messages", { shortcode: "meu", message: "Minha" })).body;
      const isOwn = (d: Record<string, unknown>) => (d.record as { id?: number } | undefined)?.id === own.id;
      await adminWs.event(channel, isOwn);
      await supervisorWs.event(channel, isOwn);
      await agentWs.event(channel, isOwn);

      const secret = (await supervisor.post("/quick-messages", { shortcode: "sup", message: "Só minha" })).body;
      const shared = (await admin.post("/quick-messages", { shortcode: "todos", message: "Geral", geral: true })).body;
      await agentWs.event(channel, (d) => (d.record as { id?: number } | undefined)?.id === shared.id);
      const leaked = agentWs.eventsOn(channel).some((f) => (f.data as { record?: { id?: number } }).record?.id === secret.id);
      assert.equal(leaked, false, "a plain user never receives another user's private reply");
      await adminWs.event(channel, (d) => (d.record as { id?: number } | undefined)?.id === secret.id);

      await agent.delete(`/quick-messages/${own.id}`);
      await supervisorWs.event(channel, (d) => d.action === "delete" && d.id === own.id);
    } finally {
      await pool.closeAll();
    }
  });
});
