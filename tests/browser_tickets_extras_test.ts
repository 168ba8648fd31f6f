/**
 * Browser tests of the tickets screen's extras (issue #6) against a real server with the
 * simulator: the avatar's full-size photo dialog (GET /contacts/photo), the spy icon's ticket
 * messages dialog (GET /messages-ghost keeps the unread count), a plain user's preview of a
 * waiting ticket where the setting viewppw allows it, adding users to a group ticket
 * from the header options menu, the system line a transfer leaves in the conversation, and
 * the list tabs' labels at 1280 px (icons only when the list pane is narrow).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { groupTicketOf } from "./helpers/fixtures.ts";
import { type Client, withServer } from "./helpers/server.ts";
import { hasChromium, loginAs, screenshot, withPage } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const WIDE = { viewport: { width: 1280, height: 800 } };

function row(page: Page, list: string, name: string) {
  return page.locator(`[data-testid="list-${list}"] .ticket-row`, { hasText: name });
}

/** A customer writes `bodies` to the demo connection; resolves with the ticket (pending). */
async function inbound(admin: Client, from: string, name: string, bodies: string[]) {
  const conn = await demoConnection(admin);
  for (const body of bodies) {
    const r = await admin.post(`/simulator/${conn.id}/inbound`, { from, name, body });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  return await eventually(async () => {
    const list = (await admin.get("/tickets?status=pending&showAll=true")).body.tickets as Array<Record<string, unknown>>;
    const found = list.find((t) => (t.contact as { name: string }).name === name);
    return found && (found.unreadMessages as number) >= bodies.length ? found : undefined;
  }, 20_000, `the ticket of ${name}`) as { id: number; uuid: string; unreadMessages: number };
}

/** Fails with a screenshot of `page` when `fn` throws. */
async function shotOnFailure(page: Page, name: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    await screenshot(page, `failure_${name}`);
    throw error;
  }
}

Deno.test({
  name: "ContactPhotoDialog: clicking a list item's avatar shows the picture the connection gives as an <img>",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const conn = await demoConnection(admin);
      const phone = await server.deps.channels.simulator(server.demo!.companyId, conn.id);
      // The simulator's phone has no pictures; this one answers like a real connection would.
      (phone as unknown as { profilePicture(number: string): Promise<string | null> }).profilePicture = () =>
        Promise.resolve(`${server.url}/static/favicon.svg`);
      await inbound(admin, "5511944440001", "Cliente Foto", ["Oi"]);
      await withPage(async (page) => {
        await shotOnFailure(page, "photo_dialog", async () => {
          await loginAs(page, server.url, "admin@demo.local");
          await page.getByTestId("subtab-pending").click();
          await row(page, "pending", "Cliente Foto").getByRole("button", { name: "Foto do contato" }).click();
          const img = page.locator('[data-testid="photo-dialog"] img');
          await img.waitFor({ timeout: 15_000 });
          assert.equal(await img.getAttribute("src"), `${server.url}/static/favicon.svg`);
          await eventually(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0 || undefined), 10_000, "the photo loaded");
          await screenshot(page, "extras_photo_dialog");
          await page.keyboard.press("Escape");
          await img.waitFor({ state: "detached" });
        });
      }, WIDE);
    });
  },
});

Deno.test({
  name: "TicketMessagesDialog: the spy icon shows the conversation read-only and leaves the unread count as it was",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const ticket = await inbound(admin, "5511944440002", "Cliente Espiado", ["Primeira mensagem", "Segunda mensagem"]);
      assert.equal(ticket.unreadMessages, 2);
      await withPage(async (page) => {
        await shotOnFailure(page, "spy_dialog", async () => {
          await loginAs(page, server.url, "supervisor@demo.local");
          await page.getByTestId("subtab-pending").click();
          await row(page, "pending", "Cliente Espiado").getByTestId("spy").click();
          const dialog = page.getByTestId("spy-dialog");
          await dialog.locator(".bubble-row.in", { hasText: "Segunda mensagem" }).waitFor({ timeout: 15_000 });
          assert.equal(await dialog.locator(".bubble-row.in", { hasText: "Primeira mensagem" }).count(), 1);
          await page.getByRole("dialog").getByText(`Cliente Espiado Ticket #${ticket.id}`).waitFor();
          await page.getByRole("dialog").getByText("Sem usuário atribuído").waitFor();
          // Read-only: no message options, no composer.
          assert.equal(await page.getByRole("dialog").getByLabel("Digite uma mensagem").count(), 0);
          await screenshot(page, "extras_spy_dialog");
          await page.getByTestId("spy-close").click();
          await dialog.waitFor({ state: "detached" });
          // The pending list still shows both unread messages, and so does the server.
          await row(page, "pending", "Cliente Espiado").getByLabel("2 mensagens não lidas").waitFor();
          assert.equal((await admin.get(`/tickets/${ticket.id}`)).body.unreadMessages, 2);
        });
      }, WIDE);
    });
  },
});

Deno.test({
  name: "TicketRow: viewppw on lets a plain user preview a waiting ticket read-only (unread kept); off, no preview icon",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const ticket = await inbound(admin, "5511944440012", "Cliente Prévia", ["Queria um orçamento", "Para amanhã"]);
      await withPage(async (page) => {
        await shotOnFailure(page, "preview_dialog", async () => {
          await loginAs(page, server.url, "agent@demo.local");
          await page.getByTestId("subtab-pending").click();
          const waiting = row(page, "pending", "Cliente Prévia");
          await waiting.waitFor({ timeout: 20_000 });
          // Off (the default): neither preview nor spy for an agent, and the server agrees.
          assert.equal(await waiting.getByTestId("preview").count(), 0);
          assert.equal(await waiting.getByTestId("spy").count(), 0);
          const refused = await page.evaluate(async (id) => {
            const token = localStorage.getItem("token");
            return (await fetch(`/messages-ghost/${id}`, { headers: { authorization: `Bearer ${token}` } })).status;
          }, ticket.id);
          assert.equal(refused, 403);

          assert.equal((await admin.put("/settings/viewppw", { value: "enabled" })).status, 200);
          await page.reload();
          await page.getByTestId("subtab-pending").click();
          await waiting.getByRole("button", { name: "Prévia da conversa" }).click();
          const dialog = page.getByTestId("spy-dialog");
          await dialog.locator(".bubble-row.in", { hasText: "Para amanhã" }).waitFor({ timeout: 15_000 });
          assert.equal(await page.getByRole("dialog").getByLabel("Digite uma mensagem").count(), 0, "read-only");
          await screenshot(page, "extras_preview_dialog");
          await page.getByTestId("spy-close").click();
          await dialog.waitFor({ state: "detached" });
          // Still waiting, still unread for everyone: previewing is not taking it.
          await waiting.getByLabel("2 mensagens não lidas").waitFor();
          const after = (await admin.get(`/tickets/${ticket.id}`)).body;
          assert.deepEqual([after.status, after.unreadMessages, after.userId], ["pending", 2, null]);
        });
      }, WIDE);
    });
  },
});

Deno.test({
  name: "GroupUsersDialog: the ticket options menu adds a contact to a group ticket (POST /groupUsers)",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const conn = await demoConnection(admin);
      const { created } = await groupTicketOf(server, admin, conn.id, "Clientes VIP", [
        ["Ana Grupo", "5511911110001"],
        ["Bruno Grupo", "5511911110002"],
        ["Carla Grupo", "5511911110003"],
      ]);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const group = created.body as { uuid: string; contact: { number: string } };
      const phone = await server.deps.channels.simulator(server.demo!.companyId, conn.id);
      await withPage(async (page) => {
        await shotOnFailure(page, "group_users", async () => {
          await loginAs(page, server.url, "admin@demo.local");
          await page.goto(`${server.url}/tickets/${group.uuid}`);
          await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
          await page.getByTestId("ticket-options").click();
          await page.getByTestId("menu-group-users").click();
          const members = page.getByTestId("group-members");
          await members.getByText("Bruno Grupo").waitFor({ timeout: 15_000 });
          assert.equal(await members.locator("li").count(), 2);
          await page.getByRole("dialog").getByLabel("Pesquisar contato (mínimo 3 caracteres)").fill("Carla");
          await page.getByRole("dialog").getByRole("checkbox", { name: "Carla Grupo" }).check({ timeout: 15_000 });
          await page.getByTestId("group-users-add").click();
          await members.getByText("Carla Grupo").waitFor({ timeout: 15_000 });
          await page.getByText("Usuários atualizados").waitFor();
          await screenshot(page, "extras_group_users");
          assert.equal(phone.groups.get(group.contact.number)?.participants.size, 3);
        });
      }, WIDE);
    });
  },
});

Deno.test({
  name: "Chat: a transfer shows a centred system line live, and it is still there after a reload",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const ticket = await inbound(admin, "5511944440003", "Cliente Transferido", ["Quero falar com vendas"]);
      await withPage(async (page) => {
        await shotOnFailure(page, "system_line", async () => {
          await loginAs(page, server.url, "admin@demo.local");
          await page.getByTestId("subtab-pending").click();
          await row(page, "pending", "Cliente Transferido").getByTestId("accept").click();
          await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
          const lines = page.getByTestId("chat").getByTestId("system-line");
          await lines.filter({ hasText: "Aceito por Ana Admin" }).waitFor({ timeout: 15_000 });

          await page.getByTestId("transfer").click();
          await page.getByTestId("transfer-queue").selectOption({ label: "Vendas" });
          await page.getByTestId("transfer-submit").click();
          const transfer = lines.filter({ hasText: "Transferido para a fila Vendas" });
          await transfer.waitFor({ timeout: 15_000 });
          assert.match(await transfer.innerText(), /por Ana Admin/);
          // Centred in the conversation.
          const box = (await transfer.locator("span").boundingBox())!;
          const list = (await page.getByTestId("messages").boundingBox())!;
          const offCentre = Math.abs(box.x + box.width / 2 - (list.x + list.width / 2));
          assert.ok(offCentre < 20, `the line is ${offCentre} px off centre`);
          await screenshot(page, "extras_system_line");

          await page.goto(`${server.url}/tickets/${ticket.uuid}`);
          await page.getByTestId("chat").waitFor({ timeout: 20_000 });
          await transfer.waitFor({ timeout: 15_000 });
          assert.deepEqual(await lines.evaluateAll((els) => els.map((e) => e.getAttribute("data-action"))), ["accept", "transfer"]);
        });
      }, WIDE);
    });
  },
});

/** Each list tab's label: its text and whether it is cut (scrollWidth > clientWidth). */
function tabLabels(page: Page) {
  return page.locator(".manager-tabs .tab").evaluateAll((tabs) =>
    tabs.map((tab) => {
      const label = tab.querySelector(".tab-label") as HTMLElement | null;
      const shown = !!label && label.offsetWidth > 0;
      return { text: label?.textContent ?? "", shown, cut: shown && label!.scrollWidth > label!.clientWidth, fits: tab.scrollWidth <= tab.clientWidth };
    })
  );
}

Deno.test({
  name: "TicketsManager tabs: at 1280×800 the four labels show uncut; on a narrow list pane they become icons",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      await withPage(async (page) => {
        await shotOnFailure(page, "tabs_1280", async () => {
          await loginAs(page, server.url, "admin@demo.local");
          await page.locator(".manager-tabs .tab").first().waitFor();
          const labels = await tabLabels(page);
          assert.deepEqual(labels.map((l) => l.text), ["Conversas", "Grupos", "Resolvidas", "Busca"]);
          for (const l of labels) assert.ok(l.shown && !l.cut && l.fits, JSON.stringify(l));
          const subtabs = await page.locator(".subtab").evaluateAll((els) => els.map((e) => e.scrollWidth <= e.clientWidth));
          assert.deepEqual(subtabs, [true, true], "the sub-tabs and their counts fit");
          await screenshot(page, "extras_tabs_1280");
        });
      }, WIDE);
      await withPage(async (page) => {
        await shotOnFailure(page, "tabs_narrow", async () => {
          await loginAs(page, server.url, "admin@demo.local");
          await page.locator(".manager-tabs .tab").first().waitFor();
          const labels = await tabLabels(page);
          for (const l of labels) assert.ok(!l.shown && l.fits, JSON.stringify(l));
          await screenshot(page, "extras_tabs_narrow");
        });
      }, { viewport: { width: 860, height: 700 } });
    });
  },
});

Deno.test({
  name: "Tickets extras at phone width in the dark theme: system lines in the chat, spy dialog by keyboard",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
      const [, sales] = server.demo!.queueIds;
      const moved = await inbound(admin, "5511944440004", "Cliente Escuro", ["Boa noite"]);
      assert.equal((await admin.put(`/tickets/${moved.id}`, { status: "open", userId: adminId })).status, 200);
      assert.equal((await admin.put(`/tickets/${moved.id}`, { queueId: sales, userId: adminId, status: "open" })).status, 200);
      await inbound(admin, "5511944440005", "Cliente Espiado Escuro", ["Alguém aí?"]);
      const context = { viewport: { width: 390, height: 800 } };
      await withPage(async (page) => {
        await shotOnFailure(page, "phone_dark_extras", async () => {
          await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
          await loginAs(page, server.url, "admin@demo.local");
          await page.goto(`${server.url}/tickets/${moved.uuid}`);
          const lines = page.getByTestId("chat").getByTestId("system-line");
          await lines.filter({ hasText: "Transferido para Vendas/Ana Admin" }).waitFor({ timeout: 20_000 });
          assert.equal(await lines.count(), 2);
          await screenshot(page, "extras_phone_dark_system_lines");

          await page.getByRole("tab", { name: "Atendimentos" }).click();
          await page.getByTestId("subtab-pending").click();
          const spy = row(page, "pending", "Cliente Espiado Escuro").getByTestId("spy");
          await spy.focus();
          await page.keyboard.press("Enter");
          await page.getByTestId("spy-dialog").locator(".bubble-row.in", { hasText: "Alguém aí?" }).waitFor({ timeout: 15_000 });
          await screenshot(page, "extras_phone_dark_spy");
          await page.keyboard.press("Escape");
          await page.getByTestId("spy-dialog").waitFor({ state: "detached" });
        });
      }, context);
    });
  },
});

Deno.test({
  name: "WalletDialog: the ticket options menu puts the contact in a user's wallet (PUT /contacts/{id} walleteUserId)",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
      const supervisorId = server.demo!.logins.find((l) => l.email === "supervisor@demo.local")!.id;
      const ticket = await inbound(admin, "5511944440006", "Cliente Carteira", ["Oi"]);
      assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
      const contactId = (await admin.get(`/tickets/${ticket.id}`)).body.contactId as number;
      await withPage(async (page) => {
        await shotOnFailure(page, "wallet_dialog", async () => {
          await loginAs(page, server.url, "admin@demo.local");
          await page.goto(`${server.url}/tickets/${ticket.uuid}`);
          await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
          await page.getByTestId("ticket-options").click();
          await page.getByTestId("menu-wallet").click();
          const select = page.getByTestId("wallet-owner");
          await select.waitFor({ timeout: 15_000 });
          assert.equal(await select.inputValue(), "");
          await page.locator('[data-testid="wallet-owner"] option', { hasText: "Sérgio Supervisor" }).waitFor({ state: "attached", timeout: 15_000 });
          await select.selectOption({ label: "Sérgio Supervisor" });
          await screenshot(page, "extras_wallet_dialog");
          await page.getByTestId("wallet-save").click();
          await page.getByText("Carteira atualizada!").waitFor({ timeout: 15_000 });
          assert.equal((await admin.get(`/contacts/${contactId}`)).body.walleteUserId, supervisorId);
        });
      }, WIDE);
    });
  },
});

Deno.test({
  name: "ContactEditDialog: the drawer's edit shows the spec's field errors and saves through PUT /contacts/{id}",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
      const ticket = await inbound(admin, "5511944440007", "Cliente Editar", ["Oi"]);
      assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
      const contactId = (await admin.get(`/tickets/${ticket.id}`)).body.contactId as number;
      await withPage(async (page) => {
        await shotOnFailure(page, "contact_edit", async () => {
          await loginAs(page, server.url, "admin@demo.local");
          await page.goto(`${server.url}/tickets/${ticket.uuid}`);
          await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
          await page.getByRole("button", { name: "Dados do contato" }).first().click();
          await page.getByTestId("contact-edit").click();
          await page.getByTestId("contact-name").fill("A");
          await page.getByTestId("contact-email").fill("nao-e-email");
          await page.getByTestId("contact-save").click();
          await page.getByRole("dialog").getByText("Muito curto!").waitFor();
          await page.getByRole("dialog").getByText("E-mail inválido").waitFor();
          await screenshot(page, "extras_contact_errors");
          await page.getByTestId("contact-name").fill("Cliente Editado");
          await page.getByTestId("contact-email").fill("cliente@exemplo.com");
          await page.getByRole("button", { name: "Adicionar informação" }).click();
          await page.getByLabel("Nome do campo").fill("CPF");
          await page.getByLabel("Valor").fill("123");
          await page.getByTestId("contact-save").click();
          await page.getByText("Contato salvo com sucesso!").waitFor({ timeout: 15_000 });
          await page.locator(".contact-drawer h3", { hasText: "Cliente Editado" }).waitFor();
          const saved = (await admin.get(`/contacts/${contactId}`)).body;
          assert.deepEqual(
            { name: saved.name, email: saved.email, extraInfo: saved.extraInfo },
            { name: "Cliente Editado", email: "cliente@exemplo.com", extraInfo: [{ name: "CPF", value: "123" }] },
          );
        });
      }, WIDE);
    });
  },
});

Deno.test({
  name: "OpportunityDialog: the ticket options menu saves a named opportunity (POST /oportunidade), refusing a one-letter name",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
      const ticket = await inbound(admin, "5511944440008", "Cliente Oportunidade", ["Quero um orçamento"]);
      assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
      await withPage(async (page) => {
        await shotOnFailure(page, "opportunity", async () => {
          await loginAs(page, server.url, "admin@demo.local");
          await page.goto(`${server.url}/tickets/${ticket.uuid}`);
          await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
          await page.getByTestId("ticket-options").click();
          await page.getByTestId("menu-opportunity").click();
          await page.getByTestId("opportunity-name").fill("X");
          await page.keyboard.press("Enter");
          await page.getByRole("dialog").getByText("Muito curto!").waitFor();
          await page.getByTestId("opportunity-name").fill("Orçamento 50 licenças");
          await screenshot(page, "extras_opportunity");
          await page.getByTestId("opportunity-save").click();
          await page.getByText("Oportunidade salva com sucesso!").waitFor({ timeout: 15_000 });
          const list = (await admin.get("/oportunidade/list")).body as { id: number; name: string }[];
          const saved = list.find((o) => o.name === "Orçamento 50 licenças");
          assert.ok(saved, JSON.stringify(list));
          // The ticket now points to it, and /oportunidades counts it.
          assert.equal((await admin.get(`/tickets/${ticket.id}`)).body.oportunidadeId, saved.id);
          const row = (await admin.get("/oportunidade/")).body.oportunidades.find((o: { id: number }) => o.id === saved.id);
          assert.equal(row.ticketsCount, 1);
        });
      }, WIDE);
    });
  },
});
