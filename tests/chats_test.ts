/**
 * Internal chat over real HTTP and WebSocket (spec 002 §2.8, §5–§7; issue #20): CRUD with the
 * dialog's validation texts, owner-only edit and delete, members-only reads, unread counts,
 * pages of messages, the plan flag, tenant isolation, and live events that reach members only
 * (a non-member's socket, live or resuming, never sees one).
 */
import assert from "node:assert/strict";
import { chatMessagesPrefix } from "../actors/chats/keys.ts";
import { CHAT_TEXTS } from "../domain/chat.ts";
import { UPGRADE_TEXT } from "../domain/external_message.ts";
import { eventually } from "./helpers/channels.ts";
import { makeUser } from "./helpers/fixtures.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { createTenant } from "./helpers/tenants.ts";
import { isEvent, markerEvent, withSockets } from "./helpers/ws.ts";

/** Ids of the demo users by e-mail. */
async function demoUsers(admin: Client): Promise<Record<string, number>> {
  const list = (await admin.get("/users/list")).body as { id: number; email: string }[];
  return Object.fromEntries(list.map((u) => [u.email.split("@")[0], u.id]));
}

/** Logs the demo's admin, agent and supervisor in once each (a second login kicks the first). */
async function demoClients(server: TestServer) {
  const [admin, agent, supervisor] = await Promise.all(
    ["admin@demo.local", "agent@demo.local", "supervisor@demo.local"].map((e) => server.login(e)),
  );
  return { admin, agent, supervisor, ids: await demoUsers(admin) };
}

Deno.test("/chats: create with the dialog's texts, owner-only edit and delete, members-only reads, unreads and pages", async () => {
  await withServer(async (server) => {
    const { admin, agent, supervisor, ids } = await demoClients(server);

    // Validation: the spec's alerts, a chat with nobody else, a user that does not exist.
    const empty = await admin.post("/chats", {});
    assert.equal(empty.status, 400);
    assert.deepEqual([empty.body.fields.title, empty.body.fields.users], [CHAT_TEXTS.titleRequired, CHAT_TEXTS.usersRequired]);
    assert.equal((await admin.post("/chats", { title: "   ", users: [ids.agent] })).body.fields.title, CHAT_TEXTS.titleRequired);
    assert.equal((await admin.post("/chats", { title: "Só eu", users: [] })).body.fields.users, CHAT_TEXTS.usersRequired);
    const alone = await admin.post("/chats", { title: "Só eu", users: [ids.admin] });
    assert.deepEqual([alone.status, alone.body.fields?.users], [400, CHAT_TEXTS.usersRequired]);
    const ghost = await admin.post("/chats", { title: "Fantasma", users: [999_999] });
    assert.deepEqual([ghost.status, ghost.body.error], [404, "ERR_NO_USER_FOUND"]);

    // Create: the owner is a member; users may come as ids or { id } objects.
    const created = await admin.post("/chats", { title: "Plantão", users: [{ id: ids.agent }] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const chat = created.body;
    assert.equal(chat.ownerId, ids.admin);
    assert.match(chat.uuid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(chat.users.map((u: { userId: number; unreads: number }) => [u.userId, u.unreads]), [[ids.admin, 0], [ids.agent, 0]]);
    assert.ok(chat.users[1].user.name.length > 0, "members carry their names");

    // Members see it; a non-member of the same company cannot tell it exists.
    assert.deepEqual((await agent.get("/chats")).body.records.map((c: { id: number }) => c.id), [chat.id]);
    assert.equal((await agent.get(`/chats/${chat.id}`)).body.title, "Plantão");
    assert.equal((await agent.get(`/chats/${chat.uuid}`)).body.id, chat.id, "the page's address names a chat by uuid");
    assert.equal((await supervisor.get(`/chats/${chat.uuid}`)).status, 404);
    assert.equal((await supervisor.get("/chats/")).body.records.length, 0);
    for (const [method, path, body] of [
      ["GET", `/chats/${chat.id}`],
      ["GET", `/chats/${chat.id}/messages`],
      ["POST", `/chats/${chat.id}/messages`, { message: "Intruso" }],
      ["POST", `/chats/${chat.id}/read`, {}],
      ["PUT", `/chats/${chat.id}`, { title: "Tomado", users: [ids.supervisor] }],
      ["DELETE", `/chats/${chat.id}`],
    ] as const) {
      const r = await supervisor.request(method, path, body);
      assert.deepEqual([r.status, r.body.error], [404, "ERR_NOT_FOUND"], `${method} ${path} as a non-member`);
    }

    // Only the owner edits and deletes.
    for (const r of [await agent.put(`/chats/${chat.id}`, { title: "Meu", users: [ids.admin] }), await agent.delete(`/chats/${chat.id}`)]) {
      assert.deepEqual([r.status, r.body.error], [403, "ERR_NO_PERMISSION"]);
    }

    // Messages: blank refused; the sender's count stays, everyone else's grows; read clears it.
    assert.equal((await agent.post(`/chats/${chat.id}/messages`, { message: "  \n " })).status, 400);
    const hello = await agent.post(`/chats/${chat.id}/messages`, { message: "Olá, equipe" });
    assert.equal(hello.status, 200, JSON.stringify(hello.body));
    assert.deepEqual([hello.body.id, hello.body.chatId, hello.body.senderId, hello.body.message], [1, chat.id, ids.agent, "Olá, equipe"]);
    assert.ok(hello.body.sender.name.length > 0);
    const adminList = (await admin.get("/chats")).body;
    assert.equal(adminList.unreads, 1);
    assert.equal(adminList.records[0].lastMessage, "Olá, equipe");
    assert.equal((await agent.get("/chats")).body.unreads, 0);
    assert.deepEqual([(await admin.post(`/chats/${chat.id}/read`, { userId: ids.agent })).status], [403]);
    const read = await admin.post(`/chats/${chat.id}/read`, { userId: ids.admin });
    assert.equal(read.status, 200);
    assert.equal(read.body.users.find((u: { userId: number }) => u.userId === ids.admin).unreads, 0);
    assert.equal((await admin.get("/chats")).body.unreads, 0);

    // Pages: 20 a page, newest page first, oldest first within a page, numbers dense.
    for (let i = 2; i <= 26; i++) {
      const by = i % 2 === 0 ? admin : agent;
      assert.equal((await by.post(`/chats/${chat.id}/messages`, { message: `Mensagem ${i}` })).status, 200);
    }
    const page1 = (await agent.get(`/chats/${chat.id}/messages?pageNumber=1`)).body;
    assert.deepEqual([page1.records.length, page1.count, page1.hasMore], [20, 26, true]);
    assert.deepEqual(page1.records.map((m: { id: number }) => m.id), Array.from({ length: 20 }, (_, i) => i + 7));
    const page2 = (await agent.get(`/chats/${chat.id}/messages?pageNumber=2`)).body;
    assert.deepEqual(page2.records.map((m: { id: number }) => m.id), [1, 2, 3, 4, 5, 6]);
    assert.equal(page2.hasMore, false);
    assert.deepEqual((await agent.get(`/chats/${chat.id}/messages?pageNumber=3`)).body.records, []);
    assert.equal((await admin.get("/chats")).body.unreads, 12, "the agent's 12 messages since the admin read");

    // The owner edits: the supervisor joins, the agent leaves (and loses the chat).
    const edited = await admin.put(`/chats/${chat.id}`, { title: "Plantão de sábado", users: [ids.supervisor] });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.deepEqual(edited.body.users.map((u: { userId: number }) => u.userId), [ids.admin, ids.supervisor]);
    assert.equal(edited.body.users[0].unreads, 12, "a member kept keeps its unread count");
    assert.equal((await supervisor.get(`/chats/${chat.id}/messages`)).body.count, 26);
    assert.equal((await agent.get(`/chats/${chat.id}`)).status, 404);
    assert.equal((await agent.get("/chats")).body.records.length, 0);
    assert.equal((await admin.get("/chats?searchParam=sabado")).body.records.length, 1);
    assert.equal((await admin.get("/chats?searchParam=domingo")).body.records.length, 0);

    // Delete: gone for everyone, its messages purged by the actor's timer.
    assert.equal((await admin.delete(`/chats/${chat.id}`)).status, 200);
    assert.equal((await admin.get(`/chats/${chat.id}`)).status, 404);
    assert.equal((await supervisor.get("/chats")).body.records.length, 0);
    const companyId = server.demo!.companyId;
    await eventually(async () => {
      const left = await Array.fromAsync(server.deps.kv.list({ prefix: chatMessagesPrefix(companyId, chat.id) }));
      return left.length === 0 ? true : undefined;
    }, 10_000, "the deleted chat's messages purged");
  });
});

Deno.test("/chats keeps tenants apart and needs the plan's useInternalChat", async () => {
  await withServer(async (server) => {
    const { admin, ids } = await demoClients(server);
    const chat = (await admin.post("/chats", { title: "Só da Demo", users: [ids.agent] })).body;
    await admin.post(`/chats/${chat.id}/messages`, { message: "Segredo da Demo" });

    const other = await createTenant(server, "Outro Chat");
    assert.equal((await other.admin.get("/chats")).body.records.length, 0);
    for (const [method, path, body] of [
      ["GET", `/chats/${chat.id}`],
      ["GET", `/chats/${chat.id}/messages`],
      ["PUT", `/chats/${chat.id}`, { title: "Tomado", users: [other.adminId] }],
      ["DELETE", `/chats/${chat.id}`],
      ["POST", `/chats/${chat.id}/messages`, { message: "Invasão" }],
      ["POST", `/chats/${chat.id}/read`, {}],
    ] as const) {
      assert.equal((await other.admin.request(method, path, body)).status, 404, `${method} ${path} from another company`);
    }
    // Another company's users cannot be added to a chat.
    const foreign = await other.admin.post("/chats", { title: "Vizinhos", users: [ids.agent] });
    assert.deepEqual([foreign.status, foreign.body.error], [404, "ERR_NO_USER_FOUND"]);
    // The other company's chat ids start at 1 too, and never reach the demo's chat.
    const theirs = (await other.admin.post("/chats", { title: "Deles", users: [(await makeUser(server, other.companyId)).user.id] })).body;
    assert.equal(theirs.id, 1);
    assert.equal((await admin.get(`/chats/${chat.id}/messages`)).body.records[0].message, "Segredo da Demo");

    const owner = await server.login("super@balcao.local");
    assert.equal((await owner.put(`/plans/${server.demo!.planId}`, { useInternalChat: false })).status, 200);
    const refused = await admin.get("/chats");
    assert.deepEqual([refused.status, refused.body.error, refused.body.message], [403, "ERR_PLAN_FEATURE", UPGRADE_TEXT]);
    assert.equal((await admin.post("/chats", { title: "Sem plano", users: [ids.agent] })).status, 403);
    assert.equal((await admin.post(`/chats/${chat.id}/messages`, { message: "Sem plano" })).status, 403);
  });
});

Deno.test("chat events reach members only: create, new-message, read, edit and delete; a non-member's socket gets none, live or resumed", async () => {
  await withSockets(async (server, pool) => {
    const { admin, agent, supervisor, ids } = await demoClients(server);
    const companyId = server.demo!.companyId;
    const [adminWs, agentWs, supervisorWs] = await Promise.all([admin, agent, supervisor].map((c) => pool.connect(c.token!)));
    const hello = await supervisorWs.hello();
    const ch = (suffix: string) => `company-${companyId}-${suffix}`;
    const chatEvents = (frames: typeof agentWs.frames) => frames.filter(isEvent).filter((e) => /-chat(-|$)/.test(e.channel));

    const chat = (await admin.post("/chats", { title: "Equipe", users: [ids.agent] })).body;
    await agentWs.event(ch(`chat-user-${ids.agent}`), (d) => d.action === "create" && (d.record as { id: number }).id === chat.id);
    await adminWs.event(ch(`chat-user-${ids.admin}`), (d) => d.action === "create");

    await agent.post(`/chats/${chat.id}/messages`, { message: "Chegou?" });
    for (const ws of [adminWs, agentWs]) {
      const frame = await ws.event(ch(`chat-${chat.id}`), (d) => d.action === "new-message");
      const data = frame.data as { newMessage: { message: string; senderId: number }; chat: { users: { userId: number; unreads: number }[] } };
      assert.deepEqual([data.newMessage.message, data.newMessage.senderId], ["Chegou?", ids.agent]);
      assert.equal(data.chat.users.find((u) => u.userId === ids.admin)!.unreads, 1);
      await ws.event(ch("chat"), (d) => d.action === "new-message");
    }

    await admin.post(`/chats/${chat.id}/read`, {});
    await agentWs.event(ch(`chat-${chat.id}`), (d) => d.action === "update");
    await adminWs.event(ch("chat"), (d) => d.action === "update");

    // Until the edit the supervisor is no member: not one chat event so far.
    server.deps.bus.publish(markerEvent(companyId, "before-edit"));
    await supervisorWs.event(ch("test-marker"), (d) => d.tag === "before-edit");
    assert.deepEqual(chatEvents(supervisorWs.frames), [], "a same-company non-member hears nothing");

    // The agent leaves in an edit: it gets a delete, never the updated chat.
    await admin.put(`/chats/${chat.id}`, { title: "Equipe B", users: [ids.admin, ids.supervisor] });
    await agentWs.event(ch("chat"), (d) => d.action === "delete" && d.id === chat.id);
    await supervisorWs.event(ch(`chat-user-${ids.supervisor}`), (d) => d.action === "create");
    const agentFrom = agentWs.frames.length;
    await admin.post(`/chats/${chat.id}/messages`, { message: "Só para o supervisor" });
    await supervisorWs.event(ch(`chat-${chat.id}`), (d) => d.action === "new-message");
    await admin.delete(`/chats/${chat.id}`);
    await supervisorWs.event(ch("chat"), (d) => d.action === "delete");

    // Everything before the marker has reached every socket that may see it.
    server.deps.bus.publish(markerEvent(companyId, "after-chat"));
    await agentWs.event(ch("test-marker"));
    assert.deepEqual(chatEvents(agentWs.frames.slice(agentFrom)), [], "the removed member hears nothing more");

    // A fresh non-member of the same company, live and resuming from before the chat existed.
    const outsider = await makeUser(server, companyId, { profile: "admin" });
    const outsiderWs = await pool.connect(outsider.client.token!);
    const chat2 = (await admin.post("/chats", { title: "Particular", users: [ids.agent] })).body;
    await admin.post(`/chats/${chat2.id}/messages`, { message: "Só nós" });
    await agentWs.event(ch(`chat-${chat2.id}`), (d) => d.action === "new-message");
    server.deps.bus.publish(markerEvent(companyId, "after-chat2"));
    await outsiderWs.event(ch("test-marker"), (d) => d.tag === "after-chat2");
    assert.deepEqual(chatEvents(outsiderWs.frames), [], "an admin who is not a member gets no chat event");
    const resumed = await pool.connect(outsider.client.token!, { lastSeq: hello.seq });
    await resumed.control("resumed");
    assert.deepEqual(chatEvents(resumed.frames), [], "a resume replays no chat event to a non-member");
  });
});
