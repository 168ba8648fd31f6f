/**
 * Ratings by the customer (issue #17, spec 000 §4 resolve, 002 §2.16): after a resolve with
 * userRating on, the chosen survey goes to the customer through the simulator; the reply is
 * recorded once per ticket (chat or public link), invalid replies are re-asked twice, and the
 * awaited reply neither opens a new ticket nor reaches the queue menu.
 */
import assert from "node:assert/strict";
import { listRatingAnswers } from "../actors/ratings/mod.ts";
import { companies, PLATFORM } from "../actors/platform/collections.ts";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { demoConnection, eventually, nextEvent } from "./helpers/channels.ts";
import { setSettings } from "./helpers/fixtures.ts";

type Ticket = { id: number; status: string; rating: number | null; ratingId: number | null; unreadMessages: number; contact?: { number: string } };
type Outbox = Array<{ to: string; body: string }>;

const SURVEY = {
  name: "Atendimento",
  message: "Como você avalia o atendimento?",
  options: [{ name: "Ruim", value: 1 }, { name: "Regular", value: 3 }, { name: "Ótimo", value: 5 }],
};

async function outbox(admin: Client, whatsappId: number, number: string): Promise<Outbox> {
  return ((await admin.get(`/simulator/${whatsappId}/outbox`)).body.messages as Outbox).filter((m) => m.to === number);
}

async function waitOutbox(admin: Client, whatsappId: number, number: string, match: RegExp, count = 1) {
  return await eventually(async () => {
    const hits = (await outbox(admin, whatsappId, number)).filter((m) => match.test(m.body));
    return hits.length >= count ? hits : undefined;
  }, 10_000, `${count}× ${match} to ${number}`);
}

async function ticketsOf(admin: Client, number: string): Promise<Ticket[]> {
  const list = (await admin.get("/tickets?showAll=true&status=&limit=1000")).body.tickets as Ticket[];
  const closed = (await admin.get("/tickets?showAll=true&status=closed&limit=1000")).body.tickets as Ticket[];
  const seen = new Map<number, Ticket>();
  for (const t of [...list, ...closed]) if (t.contact?.number === number) seen.set(t.id, t);
  return [...seen.values()].sort((a, b) => a.id - b.id);
}

/** A customer's conversation up to an open ticket held by the agent. */
async function openConversation(server: TestServer, number: string) {
  const admin = await server.login("admin@demo.local");
  const demo = await demoConnection(admin);
  const say = (body: string) => admin.post(`/simulator/${demo.id}/inbound`, { from: number, name: "Cliente", body });
  await say("Olá");
  await waitOutbox(admin, demo.id, number, /\*1\* - /);
  await say("1");
  const ticket = await eventually(async () => (await ticketsOf(admin, number))[0], 10_000, "ticket");
  const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
  assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: agentId })).status, 200);
  return { admin, demo, say, ticket, agentId };
}

async function ratingOn(server: TestServer, admin: Client, extra: Record<string, string> = {}) {
  await setSettings(server, server.demo!.companyId, { userRating: "enabled", ...extra });
  const created = await admin.post("/ratings", SURVEY);
  assert.equal(created.status, 200);
  return created.body.id as number;
}

Deno.test("resolve with userRating on sends the survey; the customer's numeric reply is recorded on the ticket and its user", async () => {
  await withServer(async (server) => {
    const number = "5511977770001";
    const { admin, demo, say, ticket, agentId } = await openConversation(server, number);
    const ratingId = await ratingOn(server, admin, { ratingurl: "https://balcao.test/survey" });
    await whatsapps.in(server.deps.system, server.demo!.companyId)
      .update(demo.id, (old) => ({ ...old, ratingMessage: "Olá {{name}}, sua opinião importa." }), () => new Error("missing"));

    const resolved = await admin.put(`/tickets/${ticket.id}`, { status: "closed", ratingId });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const [sent] = await waitOutbox(admin, demo.id, number, /Como você avalia/);
    assert.match(sent.body, /^Olá Cliente, sua opinião importa\.\n\nComo você avalia o atendimento\?\n\n\*1\* - Ruim\n\*3\* - Regular\n\*5\* - Ótimo\n\nhttps:\/\/balcao\.test\/survey\?chavePesquisa=[\w-]{22}$/);

    // The answer lands on the resolved ticket and its change event carries it.
    const rated = nextEvent(server, (e) => e.channel.endsWith("-ticket") && (e.data as { ticket?: Ticket }).ticket?.rating === 5);
    await say("5");
    await rated;
    await waitOutbox(admin, demo.id, number, /Obrigado pela sua avaliação/);
    const after = (await admin.get(`/tickets/${ticket.id}`)).body as Ticket;
    assert.equal(after.status, "closed");
    assert.equal(after.rating, 5);
    assert.equal(after.ratingId, ratingId);
    // The answer is the system's to read: the closed ticket waits in no unread bell.
    assert.equal(after.unreadMessages, 0);
    const answers = await listRatingAnswers(server.deps.system, server.demo!.companyId, { from: Date.now() - 60_000, to: Date.now() });
    assert.equal(answers.length, 1);
    assert.equal(answers[0].ticketId, ticket.id);
    assert.equal(answers[0].userId, agentId);
    assert.equal(answers[0].rate, 5);
    assert.equal(answers[0].ratingId, ratingId);
    assert.equal(answers[0].via, "chat");
    assert.deepEqual(await listRatingAnswers(server.deps.system, server.demo!.companyId, { to: Date.now() - 60_000 }), []);
    const messages = (await admin.get(`/messages/${ticket.id}`)).body.messages as Array<{ body: string }>;
    assert.ok(messages.some((m) => m.body === "5"), "the reply is in the rated ticket's conversation");
    assert.equal((await ticketsOf(admin, number)).length, 1, "no new ticket for the reply");

    // One answer per ticket: the next message is a new conversation (menu, new ticket).
    await say("Oi de novo");
    await waitOutbox(admin, demo.id, number, /\*1\* - /, 2);
    const tickets = await ticketsOf(admin, number);
    assert.equal(tickets.length, 2);
    assert.equal(tickets[1].status, "pending");
    const link = /chavePesquisa=([\w-]+)/.exec(sent.body)![1];
    const again = await server.client().post(`/buscarpesquisa/${link}`, { value: 1 });
    assert.equal(again.status, 409);
  });
});

Deno.test("an invalid reply gets the options again twice, then the wait ends and the next message opens a new ticket", async () => {
  await withServer(async (server) => {
    const number = "5511977770002";
    const { admin, demo, say, ticket } = await openConversation(server, number);
    const ratingId = await ratingOn(server, admin);
    await admin.put(`/tickets/${ticket.id}`, { status: "closed", ratingId });
    const [sent] = await waitOutbox(admin, demo.id, number, /Como você avalia/);
    assert.doesNotMatch(sent.body, /chavePesquisa/, "no link without ratingurl");
    const menus = (await outbox(admin, demo.id, number)).filter((m) => /\*1\* - Suporte/.test(m.body)).length;

    await say("talvez");
    await waitOutbox(admin, demo.id, number, /Opção inválida/, 1);
    await say("4");
    await waitOutbox(admin, demo.id, number, /Opção inválida/, 2);
    await say("sei lá");
    await eventually(async () => {
      const page = (await admin.get(`/messages/${ticket.id}`)).body.messages as Array<{ body: string }>;
      return page.some((m) => m.body === "sei lá") ? true : undefined;
    }, 10_000, "third reply stored in the rated ticket");
    await new Promise((r) => setTimeout(r, 300));
    const box = await outbox(admin, demo.id, number);
    assert.equal(box.filter((m) => /Opção inválida/.test(m.body)).length, 2, "re-asked twice only");
    assert.equal(box.filter((m) => /\*1\* - Suporte/.test(m.body)).length, menus, "no queue menu while awaited");
    assert.equal((await ticketsOf(admin, number)).length, 1);
    assert.equal((await admin.get(`/tickets/${ticket.id}`)).body.rating, null);

    await say("Preciso de ajuda");
    await waitOutbox(admin, demo.id, number, /\*1\* - Suporte/, menus + 1);
    assert.equal((await ticketsOf(admin, number)).length, 2);
  });
});

Deno.test("the public survey: GET /buscarpesquisa/{key} gives the options, POST records the answer once", async () => {
  await withServer(async (server) => {
    const number = "5511977770003";
    const { admin, demo, say, ticket } = await openConversation(server, number);
    const ratingId = await ratingOn(server, admin, { ratingurl: "https://balcao.test/survey" });
    await admin.put(`/tickets/${ticket.id}`, { status: "closed", ratingId });
    const [sent] = await waitOutbox(admin, demo.id, number, /chavePesquisa=/);
    const key = /chavePesquisa=([\w-]+)/.exec(sent.body)![1];
    const visitor = server.client();

    const read = await visitor.get(`/buscarpesquisa/${key}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.options, SURVEY.options.map((o) => ({ ratingId, ...o })));
    assert.equal(read.body.answered, false);
    assert.equal(read.body.message, SURVEY.message);
    assert.equal((await visitor.get("/buscarpesquisa/not-a-key")).status, 404);
    assert.equal((await visitor.post(`/buscarpesquisa/${key}`, { value: 2 })).status, 400);
    assert.equal((await visitor.post(`/buscarpesquisa/${key}`, { value: "x" })).status, 400);

    const answered = await visitor.post(`/buscarpesquisa/${key}`, { value: 3 });
    assert.equal(answered.status, 200);
    assert.deepEqual(answered.body, { answered: true, rate: 3 });
    assert.equal((await visitor.post(`/buscarpesquisa/${key}`, { value: 5 })).status, 409);
    assert.deepEqual(
      { answered: (await visitor.get(`/buscarpesquisa/${key}`)).body.answered, rate: (await admin.get(`/tickets/${ticket.id}`)).body.rating },
      { answered: true, rate: 3 },
    );
    const answers = await listRatingAnswers(server.deps.system, server.demo!.companyId);
    assert.deepEqual(answers.map((a) => [a.ticketId, a.rate, a.via]), [[ticket.id, 3, "link"]]);

    // The chat wait ended with the link's answer: the customer's next message is a new ticket.
    await say("5");
    await eventually(async () => ((await ticketsOf(admin, number)).length === 2 ? true : undefined), 10_000, "a new ticket");
    assert.equal((await admin.get(`/tickets/${ticket.id}`)).body.rating, 3);
  });
});

Deno.test("POST /ratings/messages/{ticketId} sends a survey on demand; refused for a rated ticket or an inactive survey", async () => {
  await withServer(async (server) => {
    const number = "5511977770004";
    const { admin, demo, say, ticket, agentId } = await openConversation(server, number);
    const created = await admin.post("/ratings", SURVEY);
    const inactive = await admin.post("/ratings", { ...SURVEY, name: "Antiga", geral: false });
    const agent = await server.login("agent@demo.local");

    assert.equal((await agent.post(`/ratings/messages/${ticket.id}`, { ratingId: inactive.body.id })).status, 400);
    assert.equal((await agent.post(`/ratings/messages/${ticket.id}`, { ratingId: 999 })).status, 404);
    assert.equal((await agent.post(`/ratings/messages/999999`, { ratingId: created.body.id })).status, 404);
    assert.equal((await agent.post(`/ratings/messages/${ticket.id}`, {})).status, 400);
    const sent = await agent.post(`/ratings/messages/${ticket.id}`, { ratingId: created.body.id, userId: agentId });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await waitOutbox(admin, demo.id, number, /Como você avalia/);
    await say("Ótimo");
    await waitOutbox(admin, demo.id, number, /Obrigado pela sua avaliação/);
    const rated = (await admin.get(`/tickets/${ticket.id}`)).body as Ticket;
    assert.deepEqual([rated.status, rated.rating], ["open", 5]);
    const again = await agent.post(`/ratings/messages/${ticket.id}`, { ratingId: created.body.id });
    assert.equal(again.status, 409);
  });
});

Deno.test("userRatingOut off: a ticket resolved out of hours closes without a survey; on: the survey goes out", async () => {
  await withServer(async (server) => {
    const number = "5511977770005";
    const { admin, demo, ticket } = await openConversation(server, number);
    const ratingId = await ratingOn(server, admin);
    // Every day closed (00:00-00:00): the company is out of hours whenever the test runs.
    const closed = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
      .map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: "00:00", endTime: "00:00" }));
    await companies.in(server.deps.system, PLATFORM).update(server.demo!.companyId, (old) => ({ ...old, schedules: closed }), () => new Error("missing"));
    await setSettings(server, server.demo!.companyId, { scheduleType: "company" });
    // Flipped as the Opções tab does (PUT /settings/{key}); off is the default.
    assert.equal((await admin.put("/settings/userRatingOut", { value: "disabled" })).status, 200);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "closed", ratingId })).status, 200);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await outbox(admin, demo.id, number)).filter((m) => /Como você avalia/.test(m.body)).length, 0);

    assert.equal((await admin.put("/settings/userRatingOut", { value: "enabled" })).status, 200);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open" })).status, 200);
    assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "closed", ratingId })).status, 200);
    await waitOutbox(admin, demo.id, number, /Como você avalia/);
  });
});
