/**
 * Browser tests of the ticket list's options and of contacts in the inbox (spec 000 §2, §5,
 * §7–§9; issue #36): the connection and tag filters take several values, each row's channel
 * icon says WhatsApp, Cloud API or Evolution, the order is flipped and kept in this browser;
 * a contact's edit shows live in the row and the conversation's header, the new-ticket dialog
 * creates a contact, and the server's own contact texts ('Contato já cadastrado com o nome
 * {name}', 'O contato: {name} já está adicionado a uma carteira.') are what the toast says.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { updateContact } from "../actors/contacts/mod.ts";
import { eventually } from "./helpers/channels.ts";
import { inboundTicket, makeConnection, makeContact } from "./helpers/fixtures.ts";
import { type TestServer, withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot, watchSocket } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const WIDE = { viewport: { width: 1280, height: 800 } };

function rows(page: Page, list: string) {
  return page.locator(`[data-testid="list-${list}"] .ticket-row`);
}

/** The contact names of `list`'s rows, top to bottom. */
async function names(page: Page, list: string): Promise<string[]> {
  return await rows(page, list).locator(".ticket-name").allInnerTexts();
}

/** A pending ticket of a new contact `name` on connection `whatsappId`. */
async function pendingOf(server: TestServer, name: string, whatsappId?: number) {
  const companyId = server.demo!.companyId;
  const contact = await makeContact(server, companyId, { name });
  return await inboundTicket(server, companyId, { contact, whatsappId, queueId: server.demo!.queueIds[0] });
}

/** Ticks `option` in the multiple-choice filter `testId`, and closes its menu. */
async function tick(page: Page, testId: string, options: string[]) {
  await page.getByTestId(testId).click();
  for (const option of options) await page.getByRole("menuitemcheckbox", { name: option, exact: true }).click();
  await page.keyboard.press("Escape");
}

Deno.test({
  name: "TicketsManager: connection and tag filters take several values, rows show their channel, the order is kept locally",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const companyId = server.demo!.companyId;
      const admin = await server.login("admin@demo.local");
      const cloud = await makeConnection(server, companyId, { provider: "cloudapi", isDefault: false, name: "Nuvem Oficial" });
      const evo = await makeConnection(server, companyId, { provider: "evolution", isDefault: false, name: "Servidor Evo" });
      const wa = await pendingOf(server, "Cliente Zap");
      const onCloud = await pendingOf(server, "Cliente Nuvem", cloud.id);
      const onEvo = await pendingOf(server, "Cliente Evo", evo.id);
      const vip = (await admin.post("/tags", { name: "VIP", color: "#7c3aed" })).body;
      const urgent = (await admin.post("/tags", { name: "Urgente", color: "#b91c1c" })).body;
      assert.equal((await admin.post("/tags/sync", { ticketId: wa.id, tags: [vip.id, urgent.id] })).status, 200);
      assert.equal((await admin.post("/tags/sync", { ticketId: onCloud.id, tags: [vip.id] })).status, 200);
      assert.ok(onEvo.id > onCloud.id && onCloud.id > wa.id);

      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext(WIDE)).newPage();
        const asked: string[] = [];
        page.on("request", (r) => r.url().includes("/tickets?") && asked.push(decodeURIComponent(r.url())));
        await loginToShell(page, server.url, "admin@demo.local");
        await page.getByTestId("subtab-pending").click();
        await eventually(async () => (await rows(page, "pending").count()) === 3 || undefined, 15_000, "three pending tickets");

        const channel = (name: string) => rows(page, "pending").filter({ hasText: name }).locator("[data-channel]");
        assert.equal(await channel("Cliente Zap").getAttribute("data-channel"), "whatsapp");
        assert.equal(await channel("Cliente Zap").getAttribute("aria-label"), "WhatsApp");
        assert.equal(await channel("Cliente Nuvem").getAttribute("data-channel"), "cloudapi");
        assert.equal(await channel("Cliente Nuvem").getAttribute("aria-label"), "WhatsApp Cloud API");
        assert.equal(await channel("Cliente Evo").getAttribute("data-channel"), "evolution");
        assert.equal(await channel("Cliente Evo").getAttribute("aria-label"), "Evolution API");

        // Newest first by default; flipped, and still flipped after a reload.
        assert.deepEqual(await names(page, "pending"), ["Cliente Evo", "Cliente Nuvem", "Cliente Zap"]);
        await page.getByTestId("sort-order").click();
        await eventually(async () => (await names(page, "pending"))[0] === "Cliente Zap" || undefined, 10_000, "oldest first");
        assert.deepEqual(await names(page, "pending"), ["Cliente Zap", "Cliente Nuvem", "Cliente Evo"]);
        await page.reload();
        await page.getByTestId("subtab-pending").click();
        await eventually(async () => (await rows(page, "pending").count()) === 3 || undefined, 15_000, "the list after a reload");
        assert.deepEqual(await names(page, "pending"), ["Cliente Zap", "Cliente Nuvem", "Cliente Evo"]);
        assert.equal(await page.getByTestId("sort-order").getAttribute("data-order"), "ASC");
        await page.setViewportSize({ width: 390, height: 800 });
        await assertFitsWidth(page, "the list's toolbar at phone width");
        await screenshot(page, "tickets_toolbar_390");
        await page.setViewportSize(WIDE.viewport);

        await tick(page, "filter-connections", ["Nuvem Oficial", "Servidor Evo"]);
        await eventually(async () => (await rows(page, "pending").count()) === 2 || undefined, 10_000, "two connections' tickets");
        assert.deepEqual(await names(page, "pending"), ["Cliente Nuvem", "Cliente Evo"]);
        assert.ok(asked.some((url) => url.includes(`whatsappIds=${cloud.id},${evo.id}`) || url.includes(`whatsappIds=[${cloud.id},${evo.id}]`)), asked.join("\n"));
        await screenshot(page, "tickets_filters_channels");
        await tick(page, "filter-connections", ["Nuvem Oficial", "Servidor Evo"]);

        // Tags: a ticket must carry every tag chosen.
        await page.getByRole("tab", { name: "Busca" }).click();
        await tick(page, "filter-tags", ["VIP"]);
        await eventually(async () => (await rows(page, "search").count()) === 2 || undefined, 10_000, "the VIP tickets");
        await tick(page, "filter-tags", ["Urgente"]);
        await eventually(async () => (await rows(page, "search").count()) === 1 || undefined, 10_000, "VIP and Urgente");
        assert.deepEqual(await names(page, "search"), ["Cliente Zap"]);
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "Contacts in the inbox: an edit shows live, the new-ticket dialog creates a contact, the spec's contact texts are the toasts",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const companyId = server.demo!.companyId;
      const admin = await server.login("admin@demo.local");
      const id = (email: string) => server.demo!.logins.find((l) => l.email === email)!.id;
      const editable = await pendingOf(server, "Cliente Editável");
      assert.equal((await admin.put(`/tickets/${editable.id}`, { status: "open", userId: id("admin@demo.local") })).status, 200);
      const guarded = await pendingOf(server, "Cliente Guardado");
      assert.equal((await admin.put(`/tickets/${guarded.id}`, { status: "open", userId: id("agent@demo.local") })).status, 200);
      await updateContact(server.deps.system, companyId, guarded.contactId, { walleteUserId: id("supervisor@demo.local") });

      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext(WIDE)).newPage();
        const socket = watchSocket(page);
        await loginToShell(page, server.url, "admin@demo.local");
        await rows(page, "open").filter({ hasText: "Cliente Editável" }).locator(".ticket-main").click();
        await page.locator('[data-testid="chat"] .chat-title', { hasText: "Cliente Editável" }).waitFor();

        // The edit is made once the page hears live events (a CI run made it before: 5 s of no rename).
        await socket.ready();
        assert.equal((await admin.put(`/contacts/${editable.contactId}`, { name: "Cliente Renomeado" })).status, 200);
        await page.locator('[data-testid="chat"] .chat-title', { hasText: "Cliente Renomeado" }).waitFor({ timeout: 5000 });
        await rows(page, "open").filter({ hasText: "Cliente Renomeado" }).waitFor({ timeout: 5000 });

        // A new contact from the new-ticket dialog, picked and opened.
        await page.getByRole("button", { name: "Novo atendimento" }).click();
        const dialog = page.getByRole("dialog", { name: "Novo atendimento" });
        await dialog.getByLabel("Pesquisar contato (mínimo 3 caracteres)").fill("Pessoa Nova");
        await dialog.getByTestId("new-ticket-add-contact").click();
        const contactDialog = page.getByRole("dialog", { name: "Adicionar contato" });
        assert.equal(await contactDialog.getByLabel("Nome").inputValue(), "Pessoa Nova");
        await contactDialog.getByLabel("Número").fill("5511977005555");
        await contactDialog.getByTestId("contact-save").click();
        await contactDialog.waitFor({ state: "detached" });
        await dialog.locator(".chip", { hasText: "Pessoa Nova" }).waitFor();
        await dialog.getByRole("button", { name: "Abrir" }).click();
        await page.locator('[data-testid="chat"] .chat-title', { hasText: "Pessoa Nova" }).waitFor({ timeout: 10_000 });

        // The same number again: the server's 'Contato já cadastrado com o nome {name}'.
        await page.getByRole("button", { name: "Novo atendimento" }).click();
        await dialog.getByLabel("Pesquisar contato (mínimo 3 caracteres)").fill("Outra Pessoa");
        await dialog.getByTestId("new-ticket-add-contact").click();
        await contactDialog.getByLabel("Número").fill("5511977005555");
        await contactDialog.getByTestId("contact-save").click();
        await page.getByTestId("toast").filter({ hasText: "Contato já cadastrado com o nome Pessoa Nova" }).waitFor({ timeout: 5000 });
        await screenshot(page, "tickets_new_contact_duplicate");

        // A plain user meets another user's wallet: 'O contato: {name} já está adicionado a uma carteira.'
        const agent = await (await chrome.newContext(WIDE)).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        await rows(agent, "open").filter({ hasText: "Cliente Guardado" }).locator(".ticket-main").click();
        await agent.getByTestId("ticket-options").click();
        await agent.getByTestId("menu-wallet").click();
        const wallet = agent.getByRole("dialog");
        await wallet.getByTestId("wallet-owner").selectOption({ label: "Alice Atendente" });
        await wallet.getByTestId("wallet-save").click();
        await agent.getByTestId("toast").filter({ hasText: "O contato: Cliente Guardado já está adicionado a uma carteira." }).waitFor({ timeout: 10_000 });
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "Contacts in the inbox: an edit heard while the conversation loads stays when its first page answers",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
      const slow = await pendingOf(server, "Cliente Lento");
      assert.equal((await admin.put(`/tickets/${slow.id}`, { status: "open", userId: adminId })).status, 200);

      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext(WIDE)).newPage();
        const socket = watchSocket(page);
        await loginToShell(page, server.url, "admin@demo.local");
        await socket.ready();
        // The conversation's first page is answered by the server at once (the ticket as it is
        // then) and handed to the page only after the rename's event arrived.
        const answered = Promise.withResolvers<void>();
        const release = Promise.withResolvers<void>();
        await page.route((url) => url.pathname === `/messages/${slow.id}`, async (route) => {
          const response = await route.fetch();
          answered.resolve();
          await release.promise;
          await route.fulfill({ response });
        });
        await rows(page, "open").filter({ hasText: "Cliente Lento" }).locator(".ticket-main").click();
        const title = page.locator('[data-testid="chat"] .chat-title');
        await title.filter({ hasText: "Cliente Lento" }).waitFor();
        await answered.promise;
        assert.equal((await admin.put(`/contacts/${slow.contactId}`, { name: "Cliente Renomeado" })).status, 200);
        await title.filter({ hasText: "Cliente Renomeado" }).waitFor({ timeout: 10_000 });

        release.resolve();
        await page.locator('[data-testid="chat"] [data-testid="messages"] .skeleton-list').waitFor({ state: "detached", timeout: 10_000 });
        assert.match(await title.innerText(), /Cliente Renomeado/);
        await rows(page, "open").filter({ hasText: "Cliente Renomeado" }).waitFor({ timeout: 5000 });
      } finally {
        await chrome.close();
      }
    });
  },
});
