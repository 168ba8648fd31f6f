/**
 * Every setting the server reads takes effect at once (issue #16): each test flips the key
 * through `PUT /settings/{key}` on a running server, as the Opções tab does, and observes the
 * changed behaviour, not only the stored value. Keys nobody reads yet are listed in
 * islands/settings/options_keys.ts (`readBy: null`). Read elsewhere and proved there the
 * same way: smtpHost/smtpPort/smtpSecure/emailsender and sendgridapi
 * (tests/password_reset_test.ts), viewterms/viewprivacy (tests/settings_uploads_test.ts),
 * userRatingOut and ratingurl (tests/ratings_survey_test.ts, tests/browser_survey_test.ts).
 */
import assert from "node:assert/strict";
import { waitFor } from "../actors/_runtime/testing.ts";
import { type Client, withServer } from "./helpers/server.ts";
import { eventually } from "./helpers/channels.ts";
import { inboundTicket, makeUser } from "./helpers/fixtures.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { markerEvent, SocketPool } from "./helpers/ws.ts";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { SECRET_MASK } from "../domain/settings.ts";

/** Flips `key` to `value` as the Opções tab does, as `client` (the demo admin unless given). */
async function flip(client: Client, key: string, value: string): Promise<void> {
  const r = await client.put(`/settings/${key}`, { value });
  assert.equal(r.status, 200, `${key}=${value}: ${JSON.stringify(r.body)}`);
}

// deno-lint-ignore no-explicit-any -- tests assert on arbitrary JSON shapes
async function ok(request: Promise<{ status: number; body: any }>) {
  const r = await request;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r;
}

/** The ticket ids `client`'s inbox list shows for `query`. */
async function listed(client: Client, query: string): Promise<number[]> {
  const r = await ok(client.get(`/tickets?${query}`));
  return (r.body as { tickets: Array<{ id: number }> }).tickets.map((t) => t.id).sort((a, b) => a - b);
}

/** Bodies of the messages stored in ticket `id`. */
async function bodies(client: Client, id: number): Promise<string[]> {
  const page = (await ok(client.get(`/messages/${id}`))).body as { messages: Array<{ body: string }> };
  return page.messages.map((m) => m.body);
}

/** The demo connection's simulator outbox: messages sent to `number`. */
async function outbox(admin: Client, whatsappId: number, number: string): Promise<string[]> {
  const box = (await admin.get(`/simulator/${whatsappId}/outbox`)).body.messages as Array<{ to: string; body: string }>;
  return box.filter((m) => m.to === number).map((m) => m.body);
}

/** The demo connection (simulator, paired). */
async function demoConnection(admin: Client) {
  const list = (await admin.get("/whatsapp")).body as Array<{ id: number; name: string }>;
  return list.find((w) => w.name === "WhatsApp Demo")!;
}

/** A customer writes on the demo connection; resolves with the ticket id once it exists. */
async function customerWrites(admin: Client, whatsappId: number, number: string, body: string): Promise<number> {
  await ok(admin.post(`/simulator/${whatsappId}/inbound`, { from: number, name: `Cliente ${number.slice(-4)}`, body }));
  return await eventually(async () => {
    const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ id: number; contact?: { number: string } }>;
    return list.find((t) => t.contact?.number === number)?.id;
  }, 10_000, `ticket of ${number}`);
}

Deno.test("viewclosed: a plain user's inbox shows colleagues' closed tickets only while it is on", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const colleague = await makeUser(server, companyId, { queueIds: [support] });
    const ticket = await inboundTicket(server, companyId, { queueId: support });
    await ok(colleague.client.put(`/tickets/${ticket.id}`, { status: "open" }));
    await ok(colleague.client.put(`/tickets/${ticket.id}`, { status: "closed" }));

    await flip(admin, "viewclosed", "disabled");
    assert.deepEqual(await listed(agent, "status=closed"), []);
    assert.equal((await agent.get(`/tickets/${ticket.id}`)).status, 403);
    await flip(admin, "viewclosed", "enabled");
    assert.deepEqual(await listed(agent, "status=closed"), [ticket.id]);
    assert.equal((await agent.get(`/tickets/${ticket.id}`)).status, 200);
    await flip(admin, "viewclosed", "disabled");
    assert.deepEqual(await listed(agent, "status=closed"), []);
  });
});

Deno.test("viewgroups and allusersviewgroups: which group tickets a plain user's inbox shows", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support, sales] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local"); // queue Suporte only
    const mine = await inboundTicket(server, companyId, { queueId: support, isGroup: true });
    const other = await inboundTicket(server, companyId, { queueId: sales, isGroup: true });
    const groups = "status=pending&isGroup=true";

    assert.deepEqual(await listed(agent, groups), []);
    await flip(admin, "viewgroups", "enabled");
    assert.deepEqual(await listed(agent, groups), [mine.id]);
    await flip(admin, "allusersviewgroups", "enabled");
    assert.deepEqual(await listed(agent, groups), [mine.id, other.id].sort((a, b) => a - b));
    await flip(admin, "allusersviewgroups", "disabled");
    await flip(admin, "viewgroups", "disabled");
    assert.deepEqual(await listed(agent, groups), []);
    assert.equal((await agent.get(`/messages/${mine.id}`)).status, 403);
  });
});

Deno.test("viewgroups: the live events of a group conversation reach a plain user's socket once it is on", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const D = server.demo!.companyId;
      const admin = await server.login("admin@demo.local");
      const agent = await server.login("agent@demo.local");
      const ws = await pool.connect(agent.token!);
      const group = { id: "120363000000000042", name: "Clientes VIP" };
      const groupText = (body: string) =>
        inboundText(group.id, body, { isGroup: true, group, participant: { number: "5511988887777", name: "João" }, name: "João" });
      const messagesOf = (ticketId: number) =>
        ws.events().filter((e) => e.channel === `company-${D}-ticket` && (e.data as { ticket?: { id: number } }).ticket?.id === ticketId);

      const first = await receive(server, groupText("antes"));
      server.deps.bus.publish(markerEvent(D, "before"));
      await ws.event(`company-${D}-test-marker`, (d) => d.tag === "before");
      assert.equal(messagesOf(first.ticketId).length, 0);

      await flip(admin, "viewgroups", "enabled");
      await ws.event(`company-${D}-settings`, (d) => (d.setting as { key: string }).key === "viewgroups");
      await receive(server, groupText("depois"));
      await ws.until(() => messagesOf(first.ticketId).length > 0);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("sendSignMessage: an agent's reply carries the signature only while it is on", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const { ticketId } = await receive(server, inboundText(freshNumber(), "oi"));
    await ok(admin.put(`/tickets/${ticketId}`, { status: "open" }));
    await flip(admin, "sendSignMessage", "enabled");
    const signed = await ok(admin.post(`/messages/${ticketId}`, { body: "assinada" }));
    assert.equal(signed.body.message.body, "*Ana Admin:*\nassinada");
    await flip(admin, "sendSignMessage", "disabled");
    const plain = await ok(admin.post(`/messages/${ticketId}`, { body: "sem assinatura" }));
    assert.equal(plain.body.message.body, "sem assinatura");
  });
});

Deno.test("userRating: resolving asks for a rating only while it is on", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const a = await inboundTicket(server, companyId, { queueId: support });
    const b = await inboundTicket(server, companyId, { queueId: support });
    await ok(agent.put(`/tickets/${a.id}`, { status: "open" }));
    await ok(agent.put(`/tickets/${b.id}`, { status: "open" }));

    await flip(admin, "userRating", "enabled");
    const refused = await agent.put(`/tickets/${a.id}`, { status: "closed" });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.message, "Avaliação obrigatória");
    await flip(admin, "userRating", "disabled");
    await ok(agent.put(`/tickets/${a.id}`, { status: "closed" }));
    await flip(admin, "userRating", "enabled");
    // The close dialog's choice: one of the company's surveys (server/ratings).
    const survey = await agent.post("/ratings", { name: "NPS", message: "Nota?", options: [{ name: "Boa", value: 5 }] });
    await ok(agent.put(`/tickets/${b.id}`, { status: "closed", ratingId: survey.body.id }));
  });
});

Deno.test("sendGreetingAccepted: accepting a ticket greets the customer only while it is on", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const agent = await server.login("agent@demo.local");
    const greeting = /meu nome é \*.+\* e agora vou prosseguir/;

    await flip(admin, "sendGreetingAccepted", "disabled");
    const quiet = await inboundTicket(server, companyId, { queueId: support });
    await ok(agent.put(`/tickets/${quiet.id}`, { status: "open" }));
    await flip(admin, "sendGreetingAccepted", "enabled");
    const greeted = await inboundTicket(server, companyId, { queueId: support });
    await ok(agent.put(`/tickets/${greeted.id}`, { status: "open" }));
    await eventually(async () => ((await bodies(agent, greeted.id)).some((b) => greeting.test(b)) ? true : undefined), 10_000, "greeting");
    assert.equal((await bodies(agent, quiet.id)).some((b) => greeting.test(b)), false);
  });
});

Deno.test("scheduleType: with company hours, a customer writing when closed gets the out-of-hours message", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const closed = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
      .map((weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: "00:00", endTime: "00:00" }));
    await ok(admin.put(`/companies/${server.demo!.companyId}/schedules`, { schedules: closed }));

    await flip(admin, "scheduleType", "disabled");
    const open = "5511966661001";
    await customerWrites(admin, demo.id, open, "olá");
    const menu = await eventually(async () => (await outbox(admin, demo.id, open)).find((b) => /Vendas/.test(b)), 10_000, "menu");
    assert.doesNotMatch(menu, /fora do horário/);

    await flip(admin, "scheduleType", "company");
    const late = "5511966661002";
    await customerWrites(admin, demo.id, late, "olá");
    await eventually(async () => (await outbox(admin, demo.id, late)).find((b) => /fora do horário/.test(b)), 10_000, "out-of-hours message");
    assert.equal((await outbox(admin, demo.id, late)).some((b) => /Vendas/.test(b)), false);
  });
});

Deno.test("sendGreetingMessageOneQueues: a one-queue connection greets a new customer only while it is on", async () => {
  await withServer(async (server) => {
    const [support] = server.demo!.queueIds;
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const full = (await admin.get(`/whatsapp/${demo.id}`)).body;
    await ok(admin.put(`/whatsapp/${demo.id}`, { ...full, queueIds: [support], greetingMessage: "Bem-vindo ao suporte da Demo" }));

    await flip(admin, "sendGreetingMessageOneQueues", "disabled");
    const first = "5511966662001";
    const ticket = await customerWrites(admin, demo.id, first, "oi");
    await eventually(async () => ((await bodies(admin, ticket)).includes("oi") ? true : undefined));
    await new Promise((r) => setTimeout(r, 300)); // room for a wrong greeting to be sent
    assert.deepEqual(await outbox(admin, demo.id, first), []);

    await flip(admin, "sendGreetingMessageOneQueues", "enabled");
    const second = "5511966662002";
    await customerWrites(admin, demo.id, second, "oi");
    await eventually(async () => (await outbox(admin, demo.id, second)).find((b) => b === "Bem-vindo ao suporte da Demo"), 10_000, "greeting");
  });
});

Deno.test("allowregister and trial: self sign-up opens and closes, and its trial length follows the setting", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const anon = server.client();
    const form = (n: string) => ({
      namecomplete: "Maria Souza",
      name: `Floricultura ${n}`,
      email: `maria${n}@flores.local`,
      password: "segredo1",
      phone: "5511977776666",
      pais: "BR",
      planId: server.demo!.planId,
    });
    const dueDays = (body: { company: { dueDate: string } }, before: number) =>
      Math.round((Date.parse(body.company.dueDate) - before) / 86_400_000);

    await flip(owner, "allowregister", "disabled");
    assert.equal((await anon.post("/companies/cadastro", form("a"))).status, 403);
    await flip(owner, "allowregister", "enabled");
    await flip(owner, "trial", "6");
    let before = Date.now();
    const six = await anon.post("/companies/cadastro", form("b"));
    assert.equal(six.status, 201, JSON.stringify(six.body));
    assert.equal(dueDays(six.body, before), 6);
    await flip(owner, "trial", "1");
    before = Date.now();
    const one = await anon.post("/companies/cadastro", form("c"));
    assert.equal(one.status, 201);
    assert.equal(dueDays(one.body, before), 1);
    await flip(owner, "allowregister", "disabled");
    assert.equal((await anon.post("/companies/cadastro", form("d"))).status, 403);
  });
});

Deno.test("viewregister: the login page links to sign-up only while it (and allowregister) is on", async () => {
  await withServer(async (server) => {
    const owner = await server.login("super@balcao.local");
    const anon = server.client();
    const loginHtml = async () => await (await fetch(`${server.url}/login`, { headers: { accept: "text/html" } })).text();
    await flip(owner, "allowregister", "enabled");
    assert.equal((await anon.get("/companies/cadastro")).body.linked, false);
    assert.doesNotMatch(await loginHtml(), /href="\/signup"/);
    await flip(owner, "viewregister", "enabled");
    assert.equal((await anon.get("/companies/cadastro")).body.linked, true);
    assert.match(await loginHtml(), /href="\/signup"/);
    await flip(owner, "viewregister", "disabled");
    assert.equal((await anon.get("/companies/cadastro")).body.linked, false);
  });
});

Deno.test("smtpUser and smtpPassword: the mail server gets the stored login, though no answer ever shows the password", async () => {
  const logins: Array<{ username?: string | null; password?: string | null }> = [];
  const mailbox = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, callback) => {
      logins.push({ username: auth.username, password: auth.password });
      callback(null, { user: auth.username });
    },
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.on("end", () => callback());
    },
  });
  await new Promise<void>((resolve) => mailbox.listen(0, "127.0.0.1", resolve));
  const port = (mailbox.server.address() as AddressInfo).port;
  try {
    await withServer(async (server) => {
      const owner = await server.login("super@balcao.local");
      for (const [key, value] of [["smtpHost", "127.0.0.1"], ["smtpPort", String(port)], ["smtpSecure", "disabled"]]) await flip(owner, key, value);
      await flip(owner, "smtpUser", "mailer@balcao.local");
      await flip(owner, "smtpPassword", "first-password");
      assert.equal((await owner.get("/settings/smtpPassword")).body.value, SECRET_MASK);
      // The recovery mail leaves after the answer (#38: the same answer for known and unknown e-mails).
      assert.equal((await server.client().post("/users/sendemail", { email: "agent@demo.local" })).status, 200);
      await waitFor(() => logins.length === 1, "the first login at the mail server");
      assert.deepEqual(logins.at(-1), { username: "mailer@balcao.local", password: "first-password" });

      await flip(owner, "smtpPassword", "second-password");
      assert.equal((await server.client().post("/users/sendemail", { email: "admin@demo.local" })).status, 200);
      await waitFor(() => logins.length === 2, "the second login at the mail server");
      assert.deepEqual(logins.at(-1), { username: "mailer@balcao.local", password: "second-password" });
    }, { smtp: undefined });
  } finally {
    await new Promise<void>((resolve) => mailbox.close(() => resolve()));
  }
});
