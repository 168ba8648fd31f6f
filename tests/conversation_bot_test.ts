/**
 * The chatbot tree at run time (issue #17) through the simulator and the demo connection:
 * the queue menu, a two-level option tree walked by numbers and typed titles, invalid replies,
 * "0" to go back, resetChatbotMsg, a queue option, an attendent option, the WhatsApp list
 * (chatBotType "list"), the n8n option against a local fake workflow, and the agent's system
 * lines for the path chosen.
 */
import assert from "node:assert/strict";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { setSetting } from "../actors/platform/settings_commands.ts";
import { queues } from "../actors/queues/collection.ts";

type Outbox = Array<{ to: string; body: string; list?: { button: string; sections: Array<{ rows: Array<{ id: string; title: string }> }> } }>;

/** The simulator's phone: what it received, and sending as a customer. */
function phone(admin: Client, whatsappId: number, number: string) {
  const box = async () => ((await admin.get(`/simulator/${whatsappId}/outbox`)).body.messages as Outbox).filter((m) => m.to === number);
  return {
    box,
    say: async (body: string) => {
      const before = (await box()).length;
      await admin.post(`/simulator/${whatsappId}/inbound`, { from: number, name: "Cliente", body });
      return before;
    },
    /** Waits for the `count`-th message after `from` received that matches. */
    async waitFor(match: RegExp, from = 0) {
      return await eventually(async () => (await box()).slice(from).find((m) => match.test(m.body)), 10_000, `message ${match} to ${number}`);
    },
  };
}

async function ticketOf(admin: Client, number: string): Promise<{ id: number; queueId: number | null; status: string; userId: number | null }> {
  return await eventually(async () => {
    const list = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets as Array<{ id: number; contact?: { number: string } }>;
    const found = list.find((t) => t.contact?.number === number);
    return found ? (await admin.get(`/tickets/${found.id}`)).body : undefined;
  }, 10_000, `ticket of ${number}`);
}

async function option(admin: Client, body: Record<string, unknown>): Promise<{ id: number }> {
  const res = await admin.post("/queue-options", body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Suporte's tree: 1 Financeiro (1 Boletos, 2 Falar com vendas → Vendas), 2 Horários. */
async function supportTree(server: TestServer, admin: Client) {
  const [support, sales] = server.demo!.queueIds;
  const finance = await option(admin, { queueId: support, title: "Financeiro", message: "Financeiro: escolha o assunto" });
  await option(admin, { queueId: support, parentId: finance.id, title: "Boletos", message: "A segunda via está no site." });
  await option(admin, { queueId: support, parentId: finance.id, title: "Falar com vendas", message: "", queueType: "queue", queueOptionsId: sales });
  await option(admin, { queueId: support, title: "Horários", message: "Atendemos das 8h às 18h." });
  return { support, sales, finance };
}

Deno.test("bot tree: queue menu, then a two-level tree by numbers and titles, invalid replies, back, and a queue option", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const { support, sales } = await supportTree(server, admin);
    const customer = phone(admin, demo.id, "5511955510001");

    await customer.say("Olá");
    await customer.waitFor(/\*1\* - Suporte\n\*2\* - Vendas/);
    let from = await customer.say("suporte"); // the queue's name typed out
    const rootMenu = await customer.waitFor(/\*1\* - Financeiro\n\*2\* - Horários/, from);
    assert.match(rootMenu.body, /^Você está no Suporte/);
    assert.equal((await ticketOf(admin, "5511955510001")).queueId, support);

    from = await customer.say("9");
    await customer.waitFor(/\*1\* - Financeiro/, from);
    from = await customer.say("FINANCEIRO");
    const sub = await customer.waitFor(/\*2\* - Falar com vendas/, from);
    assert.match(sub.body, /^Financeiro: escolha o assunto/);
    assert.match(sub.body, /\*0\* - Voltar/);

    from = await customer.say("0");
    await customer.waitFor(/\*1\* - Financeiro/, from);
    from = await customer.say("1");
    await customer.waitFor(/\*1\* - Boletos/, from);
    from = await customer.say("boletos");
    await customer.waitFor(/segunda via/, from);
    from = await customer.say("2"); // still on Financeiro's level: Falar com vendas
    await customer.waitFor(/Você está em Vendas/, from);
    const ticket = await ticketOf(admin, "5511955510001");
    assert.equal(ticket.queueId, sales);
    assert.equal(ticket.status, "pending");

    // The path is visible to the agent as system lines.
    const tracking = (await admin.get(`/tickets/${ticket.id}/tracking`)).body.tracking as Array<{ action: string; detail: string | null }>;
    assert.deepEqual(
      tracking.filter((n) => n.action === "chatbot").map((n) => n.detail),
      ["1 - Suporte", "1 - Financeiro", "1 - Financeiro", "1 - Boletos", "2 - Falar com vendas"],
    );

    // Vendas has no tree: the bot is done, a later message is for the agents.
    from = await customer.say("obrigado");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await customer.box()).length, from);
  });
});

Deno.test("bot tree: resetChatbotMsg restarts an invalid reply at the roots; an attendent option assigns the user", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    const { support, finance } = await supportTree(server, admin);
    const agentId = server.demo!.logins[3].id;
    await option(admin, { queueId: support, parentId: finance.id, title: "Atendente", message: "Vou chamar a Alice.", queueType: "attendent", queueUsersId: agentId });
    await queues.in(server.deps.system, server.demo!.companyId).update(support, (q) => ({ ...q, resetChatbotMsg: true }), () => new Error("missing"));
    const customer = phone(admin, demo.id, "5511955510002");

    await customer.say("oi");
    await customer.waitFor(/\*2\* - Vendas/);
    let from = await customer.say("1");
    await customer.waitFor(/\*1\* - Financeiro/, from);
    from = await customer.say("1");
    await customer.waitFor(/\*3\* - Atendente/, from);
    from = await customer.say("xyz");
    const reset = await customer.waitFor(/\*1\* - Financeiro/, from);
    assert.doesNotMatch(reset.body, /Voltar/, "back at the roots");

    from = await customer.say("1");
    await customer.waitFor(/\*3\* - Atendente/, from);
    from = await customer.say("3");
    await customer.waitFor(/Vou chamar a Alice/, from);
    const ticket = await eventually(async () => {
      const t = await ticketOf(admin, "5511955510002");
      return t.userId === agentId ? t : undefined;
    }, 10_000, "ticket assigned to Alice");
    assert.equal(ticket.status, "open");
    const tracking = (await admin.get(`/tickets/${ticket.id}/tracking`)).body.tracking as Array<{ action: string; userName: string | null }>;
    assert.ok(tracking.some((n) => n.action === "transfer" && n.userName === "Alice Atendente"));
  });
});

Deno.test("bot tree: with chatBotType list the menu reaches the phone as a WhatsApp list, its text kept as the body", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    const demo = await demoConnection(admin);
    await supportTree(server, admin);
    await setSetting(server.deps.system, server.demo!.companyId, "chatBotType", "list");
    const customer = phone(admin, demo.id, "5511955510003");

    await customer.say("Olá");
    const menu = await customer.waitFor(/\*2\* - Vendas/);
    assert.ok(menu.list, "a list is attached");
    assert.deepEqual(menu.list.sections[0].rows.map((r) => [r.id, r.title]), [["1", "Suporte"], ["2", "Vendas"]]);
    const from = await customer.say("1"); // the list row's id comes back as the reply
    const tree = await customer.waitFor(/\*1\* - Financeiro/, from);
    assert.deepEqual(tree.list?.sections[0].rows.map((r) => r.title), ["Financeiro", "Horários"]);
  });
});

Deno.test("bot tree: an n8n option posts the customer's turns to the workflow and sends its answer; a failure falls back to an agent", async () => {
  const turns: Array<{ text: string }> = [];
  let failing = false;
  const workflow = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const body = await req.json();
    turns.push(body);
    if (failing) return new Response("boom", { status: 500 });
    return Response.json({ output: `n8n recebeu: ${body.text}` });
  });
  try {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const demo = await demoConnection(admin);
      const [support] = server.demo!.queueIds;
      await option(admin, { queueId: support, title: "Assistente", message: `http://127.0.0.1:${workflow.addr.port}/webhook/bot`, queueType: "n8n" });
      const customer = phone(admin, demo.id, "5511955510004");
      await customer.say("Olá");
      await customer.waitFor(/\*2\* - Vendas/);
      let from = await customer.say("1");
      await customer.waitFor(/\*1\* - Assistente/, from);
      from = await customer.say("1");
      await customer.waitFor(/n8n recebeu: Assistente/, from);
      from = await customer.say("Qual o prazo de entrega?");
      await customer.waitFor(/n8n recebeu: Qual o prazo de entrega\?/, from);
      assert.ok(turns.length >= 2);

      failing = true;
      from = await customer.say("E o frete?");
      await customer.waitFor(/Um atendente vai falar com você/, from);
      const ticket = await ticketOf(admin, "5511955510004");
      const tracking = (await admin.get(`/tickets/${ticket.id}/tracking`)).body.tracking as Array<{ action: string; detail: string | null }>;
      assert.ok(tracking.some((n) => n.action === "integrationFailed" && /^n8n/.test(n.detail ?? "")), JSON.stringify(tracking));
      // The bot stepped aside: the next message is not posted to the workflow again.
      const posted = turns.length;
      await customer.say("alô?");
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(turns.length, posted);
    }, { integrationAllowPrivate: true }); // the fake workflow is on loopback (#38's address rule)
  } finally {
    await workflow.shutdown();
  }
});
