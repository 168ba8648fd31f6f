/**
 * Browser tests of /connections (spec 001 §2.1–2.3, §4): the rows are in the server's HTML;
 * an admin adds a simulator connection through the dialog (the schema's messages first),
 * reads its QR in the QR dialog, the phone scans it and the dialog closes with the success
 * toast; disconnect, new QR and a second scan; edit; rows and sessions changed by another
 * admin arrive live; restart. Then the gates: an agent gets 'Sem permissão para acessar!',
 * a supervisor sees no actions, the platform owner deletes; phone width and dark theme.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { type Client, withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

/** The simulator's phone scans connection `id`'s QR, as the signed-in admin of `page`. */
async function scan(page: Page, id: number): Promise<void> {
  const status = await page.evaluate(async (id) => {
    const r = await fetch(`/simulator/${id}/scan`, { method: "POST", headers: { authorization: `Bearer ${localStorage.getItem("token")}` } });
    return r.status;
  }, id);
  assert.equal(status, 200);
}

/** A second admin of the demo company, for changes made "on the other side". */
async function secondAdmin(login: (email: string) => Promise<Client>): Promise<Client> {
  const admin = await login("admin@demo.local");
  const r = await admin.post("/users", { name: "Outra Admin", email: "admin2@demo.local", password: "demo1234", profile: "admin" });
  assert.ok(r.status < 300, JSON.stringify(r.body));
  return await login("admin2@demo.local");
}

Deno.test({
  name: "ConnectionsPage adds a simulator connection, pairs it through the QR dialog, disconnects, pairs again, edits, and follows live changes",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const other = await secondAdmin((email) => server.login(email));
      const chrome = await launchBrowser();
      try {
        // A browser zone other than the server's: the dates redraw without a hydration error.
        const page = await (await chrome.newContext({ timezoneId: "America/Sao_Paulo" })).newPage();
        const reactErrors: string[] = [];
        page.on("console", (m) => m.type() === "error" && /react|hydrat/i.test(m.text()) && reactErrors.push(m.text()));
        page.on("pageerror", (e) => reactErrors.push(String(e)));
        await loginToShell(page, server.url, "admin@demo.local");

        // The server's HTML holds the rows: the demo connection, its masked number, its queues.
        const html = await page.evaluate(async () => (await fetch("/connections", { headers: { accept: "text/html" } })).text());
        assert.match(html, /WhatsApp Demo/);
        assert.match(html, /\+55 \(11\) 9\d{4}-\d{4}/);
        assert.match(html, /Suporte, Vendas/);
        assert.match(html, /<time[^>]*>\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}<\/time>/);
        await page.goto(`${server.url}/connections`);
        const table = page.getByTestId("connections-table");
        const demoRow = table.locator("tr", { hasText: "WhatsApp Demo" });
        await demoRow.getByText("Conectado").waitFor({ timeout: 20_000 });
        await demoRow.getByRole("button", { name: "Desconectar" }).waitFor();
        // An admin who is not the platform owner may edit but not delete.
        assert.equal(await table.getByRole("button", { name: "Excluir" }).count(), 0);

        // Validation: the schema's messages, before any call.
        await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Nome").waitFor({ timeout: 10_000 });
        await dialog.getByTestId("connection-save").click();
        await dialog.getByText("Muito curto!").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Nome").fill("Filial Centro");
        await dialog.getByLabel("Webhook").fill("não é url");
        await dialog.getByTestId("connection-save").click();
        await dialog.getByText("Invalid URL").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Webhook").fill("");
        assert.equal(await dialog.getByLabel("Mensagem de saudação").getAttribute("rows"), "4");
        await dialog.getByLabel("Mensagem de saudação").fill("Bem-vindo à filial!");
        await dialog.getByLabel("Suporte").check();
        await dialog.getByLabel("Transferir para a fila").selectOption({ label: "Suporte" });
        await dialog.getByLabel("Transferir após").selectOption({ label: "10 minutos" });
        await dialog.getByLabel("Encerrar por inatividade após").selectOption({ label: "600 minutos" });
        assert.equal(await dialog.getByLabel("Provedor").locator("option:checked").textContent(), "Simulador");
        await screenshot(page, "connections_form");
        await dialog.getByTestId("connection-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });

        // The new connection waits for its QR scan.
        const row = table.locator("tr", { hasText: "Filial Centro" });
        await row.getByRole("button", { name: "QR CODE" }).waitFor({ timeout: 10_000 });
        const id = Number(await row.getAttribute("data-row-id"));
        const stored = (await other.get(`/whatsapp/${id}`)).body;
        assert.equal(stored.provider, "simulator");
        assert.deepEqual([stored.selectedMoveQueueId, stored.selectedInterval, stored.inatividade], [server.demo!.queueIds[0], 10, 600]);
        assert.equal(stored.greetingMessage, "Bem-vindo à filial!");
        await row.getByText("Suporte").waitFor();
        // The menu's warning badge (spec 000 §2) shows while a connection waits for its scan.
        await page.getByTestId("connections-warning").waitFor({ timeout: 10_000 });

        // QR dialog → the phone scans → it closes by itself; the row is CONNECTED with its number.
        await row.getByRole("button", { name: "QR CODE" }).click();
        const qr = page.getByTestId("qr-dialog");
        await qr.getByTestId("qr-svg").locator("svg").waitFor({ timeout: 10_000 });
        await screenshot(page, "connections_qr");
        await scan(page, id);
        await qr.waitFor({ state: "detached", timeout: 10_000 });
        await page.getByText("WhatsApp conectado com sucesso!").waitFor({ timeout: 10_000 });
        await row.getByText("Conectado").waitFor({ timeout: 10_000 });
        await row.getByText(/\+55 \(11\) 9\d{4}-\d{4}/).waitFor();
        await page.getByTestId("connections-warning").waitFor({ state: "detached", timeout: 10_000 });

        // Disconnect → try again / new QR → scan again.
        await row.getByRole("button", { name: "Desconectar" }).click();
        await row.getByRole("button", { name: "Novo QR CODE" }).waitFor({ timeout: 10_000 });
        await row.getByRole("button", { name: "Tentar novamente" }).waitFor();
        await row.getByText("Desconectado").waitFor();
        await row.getByRole("button", { name: "Falha ao iniciar a sessão do WhatsApp" }).hover();
        await page.getByRole("tooltip").getByText("tente novamente", { exact: false }).first().waitFor({ timeout: 5_000 });
        await row.getByRole("button", { name: "Novo QR CODE" }).click();
        await row.getByRole("button", { name: "QR CODE", exact: true }).click({ timeout: 10_000 });
        await qr.getByTestId("qr-svg").locator("svg").waitFor({ timeout: 10_000 });
        await scan(page, id);
        await qr.waitFor({ state: "detached", timeout: 10_000 });
        await row.getByText("Conectado").waitFor({ timeout: 10_000 });

        // Edit: the dialog reads the stored record.
        await row.getByRole("button", { name: "Editar" }).click();
        await dialog.getByLabel("Nome").waitFor({ timeout: 10_000 });
        assert.equal(await dialog.getByLabel("Mensagem de saudação").inputValue(), "Bem-vindo à filial!");
        assert.equal(await dialog.getByLabel("Token").inputValue(), stored.token);
        await dialog.getByLabel("Nome").fill("Filial Sul");
        await dialog.getByLabel("Vendas").check();
        await dialog.getByTestId("connection-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        const edited = table.locator("tr", { hasText: "Filial Sul" });
        await edited.getByText("Suporte, Vendas").waitFor({ timeout: 10_000 });

        // Another admin's changes arrive live: the record, then its session.
        const put = await other.put(`/whatsapp/${id}`, { ...stored, name: "Filial Norte", queueIds: [] });
        assert.equal(put.status, 200, JSON.stringify(put.body));
        const renamed = table.locator("tr", { hasText: "Filial Norte" });
        await renamed.getByText("Sem filas").waitFor({ timeout: 10_000 });
        assert.equal((await other.delete(`/whatsappsession/${id}`, { lib: "baileys" })).status, 200);
        await renamed.getByRole("button", { name: "Novo QR CODE" }).waitFor({ timeout: 10_000 });

        // Restart warns first.
        await page.getByRole("button", { name: "Reiniciar conexões" }).click();
        await page.getByText("Aguarde... reiniciando...").waitFor({ timeout: 5_000 });
        await table.locator(".data-table-frame").evaluate((el) => el.scrollTo({ left: 0 }));
        await screenshot(page, "connections");
        assert.deepEqual(reactErrors, [], "no hydration or render errors");
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "ConnectionsPage gates agents, shows supervisors no actions, lets the platform owner delete, fits a phone in the dark theme",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const chrome = await launchBrowser();
      try {
        // A plain user gets the gate's notice in place of the page.
        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        await agent.goto(`${server.url}/connections`);
        await agent.getByTestId("gate-notice").getByText("Sem permissão para acessar!").waitFor({ timeout: 20_000 });
        assert.equal(await agent.getByTestId("connections-table").count(), 0);

        // A supervisor reads the table: no add, restart, session, edit or delete buttons.
        const supervisor = await (await chrome.newContext()).newPage();
        await loginToShell(supervisor, server.url, "supervisor@demo.local");
        await supervisor.goto(`${server.url}/connections`);
        const table = supervisor.getByTestId("connections-table");
        await table.getByText("WhatsApp Demo").waitFor({ timeout: 20_000 });
        await table.getByText("Conectado").waitFor();
        assert.equal(await supervisor.getByRole("button", { name: "Adicionar WhatsApp" }).count(), 0);
        assert.equal(await supervisor.getByRole("button", { name: "Reiniciar conexões" }).count(), 0);
        assert.equal(await table.getByRole("button").filter({ hasText: /Desconectar|Editar|Excluir/ }).count(), 0);

        // The platform owner adds one in the platform company and deletes it with the §8 confirmation.
        const owner = await (await chrome.newContext({ viewport: { width: 390, height: 800 } })).newPage();
        await owner.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
        await loginToShell(owner, server.url, "super@balcao.local");
        await owner.goto(`${server.url}/connections`);
        await owner.getByTestId("connections-page").waitFor({ timeout: 20_000 });
        await owner.getByRole("button", { name: "Adicionar WhatsApp" }).click();
        const dialog = owner.getByRole("dialog");
        await dialog.getByLabel("Nome").fill("Para excluir");
        await screenshot(owner, "connections_form_phone_dark");
        await dialog.getByTestId("connection-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        const ownerTable = owner.getByTestId("connections-table");
        const row = ownerTable.locator("tr", { hasText: "Para excluir" });
        await row.getByRole("button", { name: "QR CODE" }).waitFor({ timeout: 10_000 });
        assert.equal(await owner.locator("html").getAttribute("data-theme"), "dark");
        await assertFitsWidth(owner, "/connections");
        await screenshot(owner, "connections_phone_dark");
        await row.getByRole("button", { name: "Excluir" }).click();
        await owner.getByText("Deseja realmente excluir esse registro?").waitFor();
        await owner.getByRole("dialog").getByText("Exclusão de Registro").waitFor();
        await owner.getByTestId("confirm").click();
        await row.waitFor({ state: "detached", timeout: 10_000 });
      } finally {
        await chrome.close();
      }
    });
  },
});
