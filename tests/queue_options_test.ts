/** Queue options (chatbot tree) over real HTTP: defaults, tree reads, moves, deletes, media. */
import assert from "node:assert/strict";
import { type Client, withServer } from "./helpers/server.ts";

async function titles(client: Client, query: string): Promise<string[]> {
  const r = await client.get(`/queue-options?${query}`);
  assert.equal(r.status, 200);
  return r.body.map((o: { title: string; option: number }) => `${o.option}:${o.title}`);
}

Deno.test("POST /queue-options numbers siblings and fills the spec's defaults", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const [queueId] = server.demo!.queueIds;
    const first = await admin.post("/queue-options", { queueId });
    assert.equal(first.status, 200);
    assert.equal(first.body.title, "Nova opção");
    assert.equal(first.body.message, "Mensagem padrão");
    assert.equal(first.body.queueType, "text");
    assert.equal(first.body.option, 1);
    assert.equal(first.body.parentId, null);
    const second = await admin.post("/queue-options", { queueId, title: "Financeiro" });
    assert.equal(second.body.option, 2);
    const child = await admin.post("/queue-options", { queueId, parentId: first.body.id });
    assert.equal(child.body.title, "Nova subopção");
    assert.equal(child.body.option, 1);

    assert.deepEqual(await titles(admin, `queueId=${queueId}&parentId=-1`), [
      "1:Nova opção",
      "2:Financeiro",
    ]);
    assert.deepEqual(await titles(admin, `queueId=${queueId}&parentId=${first.body.id}`), [
      "1:Nova subopção",
    ]);
    assert.equal((await admin.get(`/queue-options?queueId=${queueId}`)).body.length, 3);

    const badParent = await admin.post("/queue-options", { queueId, parentId: 999 });
    assert.equal(badParent.status, 404);
    const badQueue = await admin.post("/queue-options", { queueId: 999 });
    assert.equal(badQueue.status, 404);
    const badType = await admin.post("/queue-options", { queueId, queueType: "robot" });
    assert.equal(badType.status, 400);
    const agent = await server.login("agent@demo.local");
    assert.equal((await agent.post("/queue-options", { queueId })).status, 403);
  });
});

Deno.test("PUT /queue-options/{id} moves an option and renumbers; DELETE renumbers and drops children", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const [queueId] = server.demo!.queueIds;
    const ids: number[] = [];
    for (const title of ["A", "B", "C", "D"]) {
      ids.push((await admin.post("/queue-options", { queueId, title })).body.id);
    }
    const moved = await admin.put(`/queue-options/${ids[3]}`, { option: 1 });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.option, 1);
    assert.deepEqual(await titles(admin, `queueId=${queueId}&parentId=-1`), [
      "1:D",
      "2:A",
      "3:B",
      "4:C",
    ]);
    await admin.put(`/queue-options/${ids[0]}`, { option: 3 });
    assert.deepEqual(await titles(admin, `queueId=${queueId}&parentId=-1`), [
      "1:D",
      "2:B",
      "3:A",
      "4:C",
    ]);
    const edited = await admin.put(`/queue-options/${ids[1]}`, {
      title: "Bê",
      message: "Escolha",
      queueType: "queue",
      queueOptionsId: server.demo!.queueIds[1],
    });
    assert.equal(edited.body.queueOptionsId, server.demo!.queueIds[1]);
    assert.equal(edited.body.option, 2);

    const child = await admin.post("/queue-options", { queueId, parentId: ids[1] });
    assert.equal((await admin.delete(`/queue-options/${ids[1]}`)).status, 200);
    assert.deepEqual(await titles(admin, `queueId=${queueId}&parentId=-1`), ["1:D", "2:A", "3:C"]);
    assert.equal(
      (await admin.get(`/queue-options/${child.body.id}`)).status,
      404,
      "children go too",
    );
    assert.equal((await admin.delete(`/queue-options/${ids[1]}`)).status, 404);

    assert.equal((await admin.delete(`/queue/${queueId}`)).status, 200);
    assert.equal(
      (await admin.get(`/queue-options?queueId=${queueId}`)).body.length,
      0,
      "a deleted queue takes its options",
    );
  });
});

Deno.test("PUT /queue-options/{id} as multipart stores media and clearMedia removes it", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const [queueId] = server.demo!.queueIds;
    const option = (await admin.post("/queue-options", { queueId })).body;
    const form = new FormData();
    form.append("title", "Com mídia");
    form.append(
      "file",
      new File([new Uint8Array([1, 2, 3])], "folheto.pdf", { type: "application/pdf" }),
    );
    const withMedia = await admin.put(`/queue-options/${option.id}`, form);
    assert.equal(withMedia.status, 200);
    assert.equal(withMedia.body.title, "Com mídia");
    assert.equal(withMedia.body.mediaName, "folheto.pdf");
    assert.match(withMedia.body.mediaUrl, /^\/media\//);
    const stored = `${server.deps.config.dataDir}/company${
      server.demo!.companyId
    }/${withMedia.body.mediaPath}`;
    assert.equal((await Deno.stat(stored)).size, 3);

    const wrong = new FormData();
    wrong.append("file", new File(["x"], "script.exe"));
    assert.equal((await admin.put(`/queue-options/${option.id}`, wrong)).status, 400);

    const cleared = await admin.put(`/queue-options/${option.id}`, { clearMedia: true });
    assert.equal(cleared.body.mediaPath, null);
    assert.equal(cleared.body.mediaUrl, null);
    await assert.rejects(() => Deno.stat(stored), Deno.errors.NotFound);
  });
});

Deno.test("queue options of another company answer 404", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const outsider = await server.login("super@balcao.local");
    const [queueId] = server.demo!.queueIds;
    const option = (await admin.post("/queue-options", { queueId })).body;
    assert.equal((await outsider.get(`/queue-options/${option.id}`)).status, 404);
    assert.equal((await outsider.put(`/queue-options/${option.id}`, { title: "x" })).status, 404);
    assert.equal((await outsider.delete(`/queue-options/${option.id}`)).status, 404);
    assert.equal((await outsider.get(`/queue-options?queueId=${queueId}`)).body.length, 0);
    assert.equal((await outsider.post("/queue-options", { queueId })).status, 404);
  });
});

Deno.test("queue options need their type's target, within the company, and a title", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const outsider = await server.login("super@balcao.local");
    const [queueId, otherQueue] = server.demo!.queueIds;
    const noTarget = await admin.post("/queue-options", { queueId, queueType: "queue" });
    assert.equal(noTarget.status, 400);
    assert.equal(noTarget.body.fields.queueOptionsId, "Required");
    const option = (await admin.post("/queue-options", { queueId })).body;
    const noUser = await admin.put(`/queue-options/${option.id}`, { queueType: "attendent" });
    assert.equal(noUser.body.fields.queueUsersId, "Required");
    const badUrl = await admin.put(`/queue-options/${option.id}`, { queueType: "n8n" });
    assert.equal(badUrl.body.fields.message, "Invalid URL", "the default message is no URL");
    const n8n = await admin.put(`/queue-options/${option.id}`, {
      queueType: "n8n",
      message: "https://n8n.example/webhook/1",
    });
    assert.equal(n8n.status, 200);
    const blank = await admin.put(`/queue-options/${option.id}`, { title: "  " });
    assert.equal(blank.body.fields.title, "Required");

    // Targets must exist in the caller's company (queue ids are numbered per company, so an
    // unknown id stands for another company's queue; user ids are platform-wide).
    const superId = (await outsider.get("/auth/me")).body.id;
    const foreignQueue = await admin.put(`/queue-options/${option.id}`, { queueType: "queue", queueOptionsId: 9999 });
    assert.equal(foreignQueue.status, 404);
    assert.equal(foreignQueue.body.error, "ERR_NO_QUEUE_FOUND");
    const foreignUser = await admin.post("/queue-options", { queueId, queueType: "attendent", queueUsersId: superId });
    assert.equal(foreignUser.status, 404);
    assert.equal(foreignUser.body.error, "ERR_NO_USER_FOUND");

    const agentId = (await (await server.login("agent@demo.local")).get("/auth/me")).body.id;
    const attendant = await admin.put(`/queue-options/${option.id}`, { queueType: "attendent", queueUsersId: agentId });
    assert.equal(attendant.status, 200);
    assert.equal(attendant.body.queueUsersId, agentId);
    const target = await admin.put(`/queue-options/${option.id}`, { queueType: "queue", queueOptionsId: otherQueue });
    assert.equal(target.body.queueOptionsId, otherQueue);

    // A target queue deleted later blocks the option only while its type uses it.
    assert.equal((await admin.delete(`/queue/${otherQueue}`)).status, 200);
    const stale = await admin.put(`/queue-options/${option.id}`, { title: "Ainda fila" });
    assert.equal(stale.status, 404, "a queue option whose queue is gone must get a new target");
    const retyped = await admin.put(`/queue-options/${option.id}`, { queueType: "text", title: "Agora texto" });
    assert.equal(retyped.status, 200, JSON.stringify(retyped.body));
    assert.equal((await admin.put(`/queue-options/${option.id}`, { title: "Outro título" })).status, 200);
  });
});
