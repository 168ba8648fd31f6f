/**
 * The Evolution adapter's phone lists against the fake Evolution API v2 server:
 * `chat/findContacts` for POST /contacts/import and `chat/findChats` for
 * POST /contacts/import/chats (persons only, LIDs through their known number), and an
 * engine failure answered as a clear 502; and its group calls behind POST /creatGroupAndTicket and
 * GET|POST /groupUsers (`group/create`, `group/participants`, `group/updateParticipant`).
 */
import assert from "node:assert/strict";
import { eventually } from "./helpers/channels.ts";
import { fakeEvolution } from "./helpers/fake_evolution.ts";
import { groupTicketOf } from "./helpers/fixtures.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";

/** An Evolution connection of the demo company, opened through the webhook. */
async function openEvolution(server: TestServer, evo: ReturnType<typeof fakeEvolution>): Promise<{ admin: Client; id: number }> {
  server.deps.channels.configure({ evolution: { baseUrl: evo.url, apiKey: "evo-key", webhookBase: server.url } });
  const admin = await server.login("admin@demo.local");
  const created = await admin.post("/whatsapp", { name: "Evolution", provider: "evolution", queueIds: [server.demo!.queueIds[0]] });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.id;
  const create = evo.calls.find((c) => c.path === "/instance/create")!;
  const webhookUrl = (create.body as { webhook: { url: string } }).webhook.url;
  evo.state.connection = "open";
  const hook = await fetch(webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ event: "connection.update", data: { state: "open", wuid: "5511944440000@s.whatsapp.net" } }),
  });
  await hook.body?.cancel();
  await eventually(async () => ((await admin.get(`/whatsapp/${id}`)).body.status === "CONNECTED" ? true : undefined), 10_000, "CONNECTED");
  return { admin, id };
}

Deno.test("EvolutionAdapter.phoneContacts: POST /contacts/import creates the persons of chat/findContacts", async () => {
  const evo = fakeEvolution();
  try {
    await withServer(async (server) => {
      const { admin, id } = await openEvolution(server, evo);
      evo.state.contacts = [
        { id: "clx1", remoteJid: "5521933330001@s.whatsapp.net", pushName: "Eva Contato", profilePicUrl: null },
        { id: "clx2", remoteJid: "120363000000000001@g.us", pushName: "Grupo" },
        { id: "clx3", remoteJid: "status@broadcast", pushName: null },
        { id: "clx4", remoteJid: "246810121416@lid", pushName: "LID sem número" },
        { id: "clx5", remoteJid: "5521933330002@s.whatsapp.net", pushName: null },
        { id: "clx6", remoteJid: "5521933330001@s.whatsapp.net", pushName: "Eva de novo" },
      ];
      const r = await admin.post("/contacts/import", { whatsappId: id });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body, { valid: 2, invalid: 0, created: 2, duplicated: 0, errors: [] });
      const call = evo.calls.find((c) => c.path === `/chat/findContacts/balcao-${server.demo!.companyId}-${id}`)!;
      assert.deepEqual([call.method, call.apikey, call.body], ["POST", "evo-key", { where: {} }]);
      const found = (await admin.get("/contacts/?searchParam=552193333")).body.contacts.map((c: { name: string; number: string }) => [c.number, c.name]);
      assert.deepEqual(found.sort(), [["5521933330001", "Eva Contato"], ["5521933330002", "5521933330002"]]);
    });
  } finally {
    await evo.server.shutdown();
  }
});

Deno.test("EvolutionAdapter.chatContacts: POST /contacts/import/chats creates the individual chats of chat/findChats; an engine failure is a 502", async () => {
  const evo = fakeEvolution();
  try {
    await withServer(async (server) => {
      const { admin, id } = await openEvolution(server, evo);
      evo.state.chats = [
        { id: "c1", remoteJid: "5521933330003@s.whatsapp.net", pushName: "Chat Evo", unreadCount: 0 },
        { id: "c2", remoteJid: "135791113@lid", pushName: "Chat pelo LID", lastMessage: { key: { remoteJid: "135791113@lid", remoteJidAlt: "5521933330004@s.whatsapp.net" } } },
        { id: "c3", remoteJid: "120363000000000009@g.us", pushName: "Grupo" },
        { id: "c4", remoteJid: "864202468@lid", pushName: "LID sem número" },
      ];
      const r = await admin.post("/contacts/import/chats", { whatsappId: id });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual([r.body.valid, r.body.created], [2, 2]);
      assert.ok(evo.calls.some((c) => c.method === "POST" && c.path.startsWith("/chat/findChats/balcao-")));
      const found = (await admin.get("/contacts/?searchParam=552193333")).body.contacts.map((c: { name: string }) => c.name);
      assert.deepEqual(found.sort(), ["Chat Evo", "Chat pelo LID"]);

      evo.state.failLists = true;
      const failed = await admin.post("/contacts/import/chats", { whatsappId: id });
      assert.equal(failed.status, 502);
      assert.equal(failed.body.error, "ERR_WAPP_CHECK_CONTACT");
      assert.match(failed.body.message, /Listing the chats of connection \d+ failed: Evolution POST \/chat\/findChats/);
    });
  } finally {
    await evo.server.shutdown();
  }
});

Deno.test("EvolutionAdapter groups: POST /creatGroupAndTicket creates the group through group/create; /groupUsers lists and adds through group/participants and group/updateParticipant", async () => {
  const evo = fakeEvolution();
  try {
    await withServer(async (server) => {
      const { admin, id } = await openEvolution(server, evo);
      const { ids, created } = await groupTicketOf(server, admin, id, "Evolução VIP", [
        ["Gi Um", "5521955550001"],
        ["Gi Dois", "5521955550002"],
        ["Gi Tres", "5521955550003"],
      ]);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal(created.body.isGroup, true);
      const call = evo.calls.find((c) => c.path.startsWith("/group/create/"))!;
      assert.deepEqual(call.body, { subject: "Evolução VIP", participants: ["5521955550001", "5521955550002"] });
      assert.equal(created.body.contact.number, "12036300001");

      const listed = await admin.get(`/groupUsers?groupId=${created.body.id}`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(listed.body.map((u: { id: number }) => u.id).sort(), [ids[0], ids[1]].sort());
      const added = await admin.post("/groupUsers", { groupId: created.body.id, users: [ids[2]] });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.deepEqual(added.body.map((u: { id: number }) => u.id).sort(), [...ids].sort());
      assert.deepEqual(evo.state.groups.get("12036300001@g.us"), ["5521955550001", "5521955550002", "5521955550003"]);
    });
  } finally {
    await evo.server.shutdown();
  }
});
