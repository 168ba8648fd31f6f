/**
 * Browser tests of the live inbox against a real server with the simulator: two agents in two
 * browser contexts see a customer's message arrive, one accepts and answers, the reply reaches
 * the simulator's outbox, then transfer, return, resolve with rating and reopen, plus the
 * queue visibility of a plain user and the phone-width layout.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { type Client, withServer } from "./helpers/server.ts";
import { hasChromium, launchBrowser, loginAs, screenshot, watchSocket } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

async function simulatorId(admin: Client): Promise<number> {
  const list = (await admin.get("/whatsapp")).body as { id: number; provider: string }[];
  const sim = list.find((w) => w.provider === "simulator") ?? list[0];
  assert.ok(sim, "the demo has a simulator connection");
  return sim.id;
}

function row(page: Page, list: string, name: string) {
  return page.locator(`[data-testid="list-${list}"] .ticket-row`, { hasText: name });
}

/** Polls `check` until it returns true (bounded). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("condition not met in time");
}

Deno.test({
  name: "TicketsPage: a customer message reaches two agents live; accept, reply, transfer, return, resolve with rating, reopen",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const sim = await simulatorId(admin);
      assert.equal((await admin.put("/settings/userRating", { value: "enabled" })).status, 200);
      const survey = await admin.post("/ratings", { name: "Atendimento", message: "Como foi?", options: [{ name: "Ótimo", value: 5 }] });
      const chrome = await launchBrowser();
      const a = await (await chrome.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      const b = await (await chrome.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      const sockets = [a, b].map(watchSocket);
      try {
        await loginAs(a, server.url, "agent@demo.local");
        await loginAs(b, server.url, "supervisor@demo.local");
        for (const page of [a, b]) {
          await page.getByTestId("subtab-pending").click();
          await page.locator('[data-testid="list-pending"] .ticket-list').waitFor();
        }
        // Sockets authenticated (the hub handles the page's joins right after its hello), not
        // a guessed half second: the arrival below is timed.
        await Promise.all(sockets.map((s) => s.ready()));

        const started = Date.now();
        const sent = await admin.post(`/simulator/${sim}/inbound`, { from: "5511988887777", name: "Cliente Navegador", body: "Olá, preciso de ajuda com meu pedido" });
        assert.equal(sent.status, 200, JSON.stringify(sent.body));
        await Promise.all([a, b].map((page) => row(page, "pending", "Cliente Navegador").waitFor({ timeout: 20_000 })));
        const arrival = Date.now() - started;
        console.log(`pending ticket visible in both inboxes after ${arrival} ms`);
        assert.ok(arrival <= 3000, `arrived in ${arrival} ms`);
        await screenshot(a, "tickets_pending");

        await row(a, "pending", "Cliente Navegador").getByTestId("accept").click();
        await a.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
        await row(b, "pending", "Cliente Navegador").waitFor({ state: "detached", timeout: 20_000 });

        const reply = "Claro! Pode me passar o número do pedido?";
        await a.getByLabel("Digite uma mensagem").fill(reply);
        await a.getByLabel("Digite uma mensagem").press("Enter");
        await a.locator(".bubble-row.out", { hasText: reply }).first().waitFor({ timeout: 20_000 });
        await eventually(async () => {
          const outbox = (await admin.get(`/simulator/${sim}/outbox`)).body.messages as { body: string }[];
          return outbox.some((m) => m.body.includes(reply));
        });
        await admin.post(`/simulator/${sim}/inbound`, { from: "5511988887777", name: "Cliente Navegador", body: "Pedido 4242" });
        await a.locator(".bubble-row.in", { hasText: "Pedido 4242" }).first().waitFor({ timeout: 20_000 });
        await screenshot(a, "tickets_conversation");

        // Transfer to Vendas with no user: pending there; the Suporte-only agent loses it.
        await a.getByTestId("transfer").click();
        await a.getByTestId("transfer-queue").selectOption({ label: "Vendas" });
        await a.getByTestId("transfer-submit").click();
        await b.getByTestId("subtab-pending").click();
        await row(b, "pending", "Cliente Navegador").waitFor({ timeout: 20_000 });
        await a.getByTestId("subtab-pending").click();
        await a.waitForTimeout(1200);
        assert.equal(await row(a, "pending", "Cliente Navegador").count(), 0, "a plain user does not see another queue's ticket");

        // The supervisor accepts, returns it to the queue, accepts again and resolves with a rating.
        await row(b, "pending", "Cliente Navegador").getByTestId("accept").click();
        await b.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
        await b.getByTestId("return").click();
        await b.locator('[data-testid="chat"][data-ticket-status="pending"]').waitFor({ timeout: 20_000 });
        await b.getByTestId("header-accept").click();
        await b.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
        await b.getByTestId("resolve").click();
        await b.getByTestId("resolve-without").click();
        await b.getByText("Avaliação obrigatória").waitFor();
        await screenshot(b, "tickets_rating");
        await b.getByTestId(`rating-${survey.body.id}`).click();
        await b.getByTestId("resolve-without").click();
        await b.locator('[data-testid="chat"][data-ticket-status="closed"]').waitFor({ timeout: 20_000 });
        await b.getByTestId("reopen").click();
        await b.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
        await screenshot(b, "tickets_reopened");
      } catch (error) {
        for (const [name, page] of [["a", a], ["b", b]] as const) await screenshot(page, `failure_${name}`);
        throw error;
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "TicketsPage at phone width shows the list and the chat as two tabs, in the dark theme",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const sim = await simulatorId(admin);
      await admin.post(`/simulator/${sim}/inbound`, { from: "5511977776666", name: "Cliente Celular", body: "Oi, tudo bem?" });
      const chrome = await launchBrowser();
      try {
        const context = await chrome.newContext({ viewport: { width: 390, height: 800 } });
        await context.addCookies([{ name: "theme", value: "dark", url: server.url }]);
        const page = await context.newPage();
        await loginAs(page, server.url, "admin@demo.local");
        await page.getByTestId("subtab-pending").click();
        await row(page, "pending", "Cliente Celular").waitFor({ timeout: 20_000 });
        assert.equal(await page.locator(".chat-pane").isVisible(), false);
        await screenshot(page, "phone_list_dark");
        await row(page, "pending", "Cliente Celular").getByTestId("accept").click();
        await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
        assert.equal(await page.locator(".list-pane").isVisible(), false);
        await screenshot(page, "phone_chat_dark");
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "NewTicketDialog opens a ticket for a searched contact and the contact drawer saves a note",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const sim = await simulatorId(admin);
      await admin.post(`/simulator/${sim}/inbound`, { from: "5511966665555", name: "Cliente Antigo", body: "Oi" });
      await eventually(async () => (await admin.get("/tickets?status=pending")).body.tickets.length > 0);
      const pending = (await admin.get("/tickets?status=pending")).body.tickets[0];
      assert.equal((await admin.put(`/tickets/${pending.id}`, { status: "closed" })).status, 200);
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
        await loginAs(page, server.url, "agent@demo.local");
        await page.getByRole("button", { name: "Novo atendimento" }).click();
        await page.getByLabel("Pesquisar contato (mínimo 3 caracteres)").fill("Antigo");
        await page.locator(".pick", { hasText: "Cliente Antigo" }).click();
        await screenshot(page, "new_ticket_dialog");
        await page.getByRole("button", { name: "Abrir", exact: true }).click();
        try {
          await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
        } catch (error) {
          await screenshot(page, "failure_new_ticket");
          throw error;
        }
        await page.getByRole("button", { name: "Dados do contato" }).first().click();
        await page.getByLabel("Nova observação").fill("Cliente VIP, prefere WhatsApp");
        await page.getByRole("button", { name: "Adicionar" }).click();
        await page.getByText("Observação adicionada com sucesso!").waitFor({ timeout: 10_000 });
        await page.locator(".notes", { hasText: "Cliente VIP" }).waitFor({ timeout: 10_000 });
        await screenshot(page, "contact_drawer");
      } finally {
        await chrome.close();
      }
    });
  },
});
