/**
 * Issue #15's end-to-end flow, in the browser only: the demo admin adds a connection and
 * pairs it through the simulator, creates a queue with a two-level bot menu, a user in that
 * queue, a tag and a quick reply, imports 1,000 contacts from a spreadsheet and exports them
 * back; then the new user, logged in elsewhere, sees it all in the inbox: a customer's
 * message on the new connection waiting in the new queue, the quick reply under '/', the tag.
 */
import assert from "node:assert/strict";
import { hasChromium, loginToShell, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { exportThrough, importThrough, workbook } from "./helpers/contacts_ui.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "Admin workspace end to end: connection paired, queue with a bot menu, user, tag, quick reply, 1,000 contacts in and out, seen by the agent",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "admin@demo.local");
      const dialog = page.getByRole("dialog");
      const token = () => page.evaluate(() => localStorage.getItem("token"));
      const call = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(server.url + path, {
          method,
          headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return await r.json();
      };

      // A queue with a two-level bot menu.
      await page.goto(`${server.url}/queues`);
      await page.getByRole("button", { name: "Adicionar fila" }).click();
      await dialog.getByLabel("Nome").fill("Loja Norte");
      await dialog.getByLabel("Prioridade").fill("1");
      await dialog.getByLabel("Mensagem de saudação").fill("Olá! Escolha uma opção:");
      await dialog.getByTestId("queue-save").click();
      await page.getByText("Fila salva com sucesso!").waitFor({ timeout: 10_000 });
      const queuesTable = page.getByTestId("queues-table");
      await queuesTable.getByText("Loja Norte", { exact: true }).waitFor({ timeout: 10_000 });
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      await queuesTable.locator("tr", { hasText: "Loja Norte" }).getByRole("button", { name: "Editar" }).click();
      await dialog.getByRole("tab", { name: "Fluxo do Bot" }).click();
      const tree = dialog.getByTestId("bot-tree");
      await tree.getByRole("button", { name: "Adicionar opção" }).click();
      const root = tree.locator(".bot-node", { hasText: "Nova opção" }).last();
      await root.getByLabel("Título").fill("Pedidos");
      await root.getByRole("button", { name: "Salvar opção" }).click();
      await tree.locator(".bot-title", { hasText: "Pedidos" }).waitFor({ timeout: 10_000 });
      await tree.getByRole("button", { name: "Adicionar subopção de Pedidos" }).click();
      const child = tree.locator(".bot-node .bot-level .bot-node").first();
      await child.getByText("Nova subopção").waitFor({ timeout: 10_000 });
      await child.getByRole("button", { name: "Salvar opção" }).click();
      await page.getByText("Opção salva com sucesso!").waitFor({ timeout: 10_000 });
      await page.keyboard.press("Escape");
      const queue = (await call("GET", "/queue")).find((q: { name: string }) => q.name === "Loja Norte");
      const roots = await call("GET", `/queue-options?queueId=${queue.id}&parentId=-1`);
      assert.deepEqual(roots.map((o: { title: string }) => o.title), ["Pedidos"]);
      const subs = await call("GET", `/queue-options?queueId=${queue.id}&parentId=${roots[0].id}`);
      assert.deepEqual(subs.map((o: { title: string }) => o.title), ["Nova subopção"]);

      // A connection for that queue, paired through the QR dialog and the simulator's phone.
      await page.goto(`${server.url}/connections`);
      await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
      await dialog.getByLabel("Nome").fill("Filial Norte");
      await dialog.getByLabel("Loja Norte").check();
      await dialog.getByTestId("connection-save").click();
      const row = page.getByTestId("connections-table").locator("tr", { hasText: "Filial Norte" });
      await row.getByRole("button", { name: "QR CODE" }).click({ timeout: 20_000 });
      const qr = page.getByTestId("qr-dialog");
      await qr.getByTestId("qr-svg").locator("svg").waitFor({ timeout: 10_000 });
      const connection = (await call("GET", "/whatsapp")).find((w: { name: string }) => w.name === "Filial Norte");
      await call("POST", `/simulator/${connection.id}/scan`);
      await qr.waitFor({ state: "detached", timeout: 10_000 });
      await row.getByText("Conectado").waitFor({ timeout: 10_000 });
      await screenshot(page, "workspace_connections");

      // A user in that queue.
      await page.goto(`${server.url}/users`);
      await page.getByRole("button", { name: "Adicionar usuário" }).click();
      await dialog.getByLabel("Nome").fill("Nina Norte");
      await dialog.getByLabel("Senha").fill("demo1234");
      await dialog.getByLabel("E-mail").fill("nina@demo.local");
      await dialog.getByLabel("Loja Norte").check();
      await dialog.getByTestId("user-save").click();
      await page.getByTestId("users-table").locator("tr", { hasText: "Nina Norte" }).getByText("Loja Norte").waitFor({ timeout: 10_000 });

      // A tag and a quick reply shared with the whole company (geral).
      await page.goto(`${server.url}/tags`);
      await page.getByRole("button", { name: "Adicionar tag" }).click();
      await dialog.getByLabel("Nome").fill("Norte VIP");
      await dialog.getByTestId("tag-save").click();
      await page.getByTestId("tags-table").getByText("Norte VIP").waitFor({ timeout: 10_000 });
      await page.goto(`${server.url}/quick-messages`);
      await page.getByRole("button", { name: "Adicionar resposta rápida" }).click();
      await dialog.getByLabel("Atalho").fill("expediente");
      await dialog.getByLabel("Mensagem").fill("Abrimos das 8h às 18h.");
      await dialog.getByLabel("Geral (compartilhada com toda a empresa)").check();
      await dialog.getByTestId("quick-message-save").click();
      const replyRow = page.getByTestId("quick-messages-table").locator("tbody tr", { hasText: "/expediente" });
      await replyRow.first().waitFor({ timeout: 10_000 });
      assert.equal(await replyRow.count(), 1, "one row for the new reply");

      // 1,000 contacts from a spreadsheet, and back out as contacts.csv.
      await page.goto(`${server.url}/contacts`);
      const sheet = await workbook(Array.from({ length: 1000 }, (_, i) => [`Norte ${String(i).padStart(4, "0")}`, `55219${String(i).padStart(8, "0")}`]));
      await importThrough(page, { name: "norte.xlsx", mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buffer: sheet });
      await page.getByText("Importação concluída! Contatos Válidos: 1000").waitFor({ timeout: 60_000 });
      const exported = await exportThrough(page);
      assert.equal(exported.name, "contacts.csv");
      const names = new Set(exported.rows.map((r) => r[0]));
      for (const i of [0, 499, 999]) assert.ok(names.has(`Norte ${String(i).padStart(4, "0")}`), `row ${i} exported`);
      assert.ok(exported.rows.length >= 1001, `all contacts exported (${exported.rows.length} lines)`);
      await screenshot(page, "workspace_contacts");

      // The new user sees it in the inbox: a customer writes to the new connection.
      const inbound = await call("POST", `/simulator/${connection.id}/inbound`, { from: "5521977770001", name: "Cliente Norte", body: "Oi, quero fazer um pedido" });
      assert.ok(!inbound.error, JSON.stringify(inbound));
      const nina = await (await chrome.newContext()).newPage();
      await loginToShell(nina, server.url, "nina@demo.local");
      await nina.getByTestId("subtab-pending").click();
      const ticket = nina.locator('[data-testid="list-pending"] .ticket-row', { hasText: "Cliente Norte" });
      await ticket.waitFor({ timeout: 20_000 });
      await ticket.getByTestId("accept").click();
      await nina.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
      await nina.getByLabel("Digite uma mensagem").fill("/expe");
      await nina.getByText("Abrimos das 8h às 18h.").first().waitFor({ timeout: 10_000 });
      const tags = await (await fetch(`${server.url}/tags/list`, {
        headers: { authorization: `Bearer ${await nina.evaluate(() => localStorage.getItem("token"))}` },
      })).json();
      assert.ok(tags.some((t: { name: string }) => t.name === "Norte VIP"), "the agent's tag picker has the new tag");
      await screenshot(nina, "workspace_agent_inbox");
    });
  },
});
