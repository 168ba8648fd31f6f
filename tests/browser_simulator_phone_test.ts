/**
 * Browser test of /simulator, the customers' phone (issue #37): opened from the simulator's
 * row on the connections page, a new customer writes (Enter sends, Shift+Enter breaks the
 * line), the bot's menu arrives as buttons and is answered by a tap, an agent's formatted
 * reply arrives with its tick, the customer sends a location and a contact card (stored as
 * such on the ticket), marks the chat read (the agent's message turns read, ack 4, on both
 * sides), at phone width with the keyboard alone, and in English.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { findContactByNumber } from "../actors/contacts/mod.ts";
import { activeTicketOfContact } from "../actors/tickets/mod.ts";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import type { TestServer } from "./helpers/server.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const NUMBER = "5511977776666";

/** The chat's bubbles. */
const bubbles = (page: Page) => page.getByTestId("phone-messages").getByTestId("phone-message");

async function ticketOf(server: TestServer, number: string) {
  const contact = await findContactByNumber(server.deps.system, server.demo!.companyId, number);
  assert.ok(contact, `contact ${number}`);
  const ticket = await activeTicketOfContact(server.deps.system, server.demo!.companyId, contact.id);
  assert.ok(ticket, `ticket of ${number}`);
  return ticket;
}

Deno.test({
  name: "SimulatorPage is the customer's phone: new chat, bot menu tapped, agent's reply with ticks, location, contact card, read receipts",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1280, height: 860 } });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));

      // From the connections page: the simulator's row opens its phone.
      await page.goto(`${server.url}/connections`);
      await page.getByTestId("open-simulator").first().click();
      await page.waitForURL(/\/simulator\?c=\d+/);
      await page.getByTestId("phone-state").getByText("Conectado").waitFor({ timeout: 20_000 });
      assert.doesNotMatch(await page.getByTestId("phone-state").innerText(), /CONNECTED/);

      // A new customer, by keyboard: the dialog's fields and Enter.
      await page.getByTestId("phone-new-chat-open").click();
      await page.getByLabel("Nome do cliente").fill("Cliente do Teste");
      await page.getByLabel("Número (com DDI e DDD)").fill(NUMBER);
      await page.keyboard.press("Enter");
      const input = page.getByTestId("phone-input");
      await input.waitFor();
      await input.focus();
      await page.keyboard.type("Olá, preciso de ajuda");
      await page.keyboard.press("Shift+Enter");
      await page.keyboard.type("com o meu pedido");
      assert.equal(await input.inputValue(), "Olá, preciso de ajuda\ncom o meu pedido", "Shift+Enter breaks the line");
      await page.keyboard.press("Enter");
      await bubbles(page).filter({ hasText: "com o meu pedido" }).waitFor({ timeout: 10_000 });
      assert.equal(await input.inputValue(), "", "Enter sent it");

      // The bot's menu, rendered: its *1* in bold and its options as buttons; a tap answers.
      const menu = bubbles(page).filter({ hasText: "Escolha um setor" });
      await menu.waitFor({ timeout: 10_000 });
      assert.equal(await menu.locator("strong").first().textContent(), "1");
      const support = menu.getByTestId("phone-menu-option").filter({ hasText: "Suporte" });
      await support.focus();
      await page.keyboard.press("Enter");
      await bubbles(page).filter({ hasText: "Você está no Suporte" }).waitFor({ timeout: 10_000 });
      assert.equal(await page.getByTestId("phone-menu-option").count(), 0, "an answered menu offers no buttons");
      const ticket = await ticketOf(server, NUMBER);
      assert.equal(ticket.queueId, server.demo!.queueIds[0]);

      // An agent answers with WhatsApp formatting: it arrives rendered, with its tick (sent).
      const agent = await server.login("agent@demo.local");
      assert.equal((await agent.put(`/tickets/${ticket.id}`, { status: "open", userId: (await agent.get("/auth/me")).body.id })).status, 200);
      assert.equal((await agent.post(`/messages/${ticket.id}`, { body: "Claro! Qual o *número* do _pedido_?" })).status, 200);
      const reply = bubbles(page).filter({ hasText: "do pedido" });
      await reply.waitFor({ timeout: 10_000 });
      assert.equal(await reply.locator("strong").filter({ hasText: "número" }).count(), 1);
      assert.equal(await reply.locator("em").filter({ hasText: "pedido" }).count(), 1);
      assert.doesNotMatch(await reply.innerText(), /\*número\*/, "no raw markers");
      await reply.getByLabel("Enviada").waitFor();
      await screenshot(page, "simulator_phone_desktop");

      // A location and a contact card, from their dialogs.
      await page.getByRole("button", { name: "Enviar localização" }).click();
      await page.getByTestId("phone-location").click();
      await bubbles(page).getByText("Abrir no mapa").waitFor({ timeout: 10_000 });
      await page.getByRole("button", { name: "Enviar contato" }).click();
      await page.getByLabel("Nome do contato").fill("Maria Indicação");
      await page.getByLabel("Número do contato").fill("5511955554444");
      await page.getByTestId("phone-contact").click();
      await bubbles(page).getByText("Maria Indicação").waitFor({ timeout: 10_000 });
      const stored = (await agent.get(`/messages/${ticket.id}`)).body.messages as Array<{ mediaType: string; body: string; fromMe: boolean; ack: number }>;
      assert.ok(stored.some((m) => m.mediaType === "locationMessage" && /maps\.google\.com\/maps\?q=-23\.5614%2C-46\.6559/.test(m.body)));
      assert.ok(stored.some((m) => m.mediaType === "contactMessage" && /FN:Maria Indicação/.test(m.body)));

      // Read receipts: the agent's message turns read on the phone and in the inbox.
      await page.getByTestId("phone-mark-read").click();
      await reply.getByLabel("Lida").waitFor({ timeout: 10_000 });
      const after = (await agent.get(`/messages/${ticket.id}`)).body.messages as Array<{ body: string; ack: number }>;
      assert.equal(after.find((m) => m.body.includes("Qual o *número*"))?.ack, 4);
      // The agent read the customer's messages meanwhile (GET /messages): their ticks are blue.
      await page.getByTestId("phone-mark-read").click();
      await bubbles(page).filter({ hasText: "com o meu pedido" }).getByLabel("Lida").waitFor({ timeout: 10_000 });

      // Phone width, keyboard alone: the chat fills the screen, the back button returns to the list.
      await page.setViewportSize({ width: 390, height: 844 });
      await assertFitsWidth(page, "the phone at 390 px");
      await page.getByRole("button", { name: "Voltar às conversas" }).focus();
      await page.keyboard.press("Enter");
      await page.getByTestId("phone-chat").filter({ hasText: "Cliente do Teste" }).focus();
      await page.keyboard.press("Enter");
      await page.getByTestId("phone-input").focus();
      await page.keyboard.type("Obrigado!");
      await page.keyboard.press("Enter");
      await bubbles(page).filter({ hasText: "Obrigado!" }).waitFor({ timeout: 10_000 });
      await assertFitsWidth(page, "the chat at 390 px");
      await screenshot(page, "simulator_phone_390");
      assert.deepEqual(errors, []);

      // English: the same page in the viewer's language.
      const english = await signedInPage(chrome, server, "admin@demo.local");
      await english.context().addCookies([{ name: "lang", value: "en", url: server.url }]);
      await english.goto(`${server.url}/simulator`);
      await english.getByRole("heading", { name: "WhatsApp simulator" }).waitFor({ timeout: 20_000 });
      await english.getByTestId("phone-state").getByText("Connected").waitFor();
    });
  },
});
