/**
 * Browser tests of /queues (spec 001 §2.15): the queues in the server's HTML in prioridade
 * order, the queue dialog with the spec's validation messages, the hours tab only when
 * scheduleType is `queue`, a two-level bot menu built, moved and pruned (renumbering checked
 * through the API), media on an option, edit and delete of a queue, live rows and bot options
 * from another admin, the supervisor's read-only table, the agent's gate, and phone width.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { type Client, withServer } from "./helpers/server.ts";
import { hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

/** The options under `parent` (-1: roots) as "option:title", in option order. */
async function menu(client: Client, queueId: number, parent: number | -1): Promise<string[]> {
  const r = await client.get(`/queue-options?queueId=${queueId}&parentId=${parent}`);
  assert.equal(r.status, 200);
  return r.body.map((o: { option: number; title: string }) => `${o.option}:${o.title}`);
}

/** Adds a root option in the open bot tab and names it through its form (opened on creation). */
async function addRoot(page: Page, title: string) {
  const tree = page.getByTestId("bot-tree");
  const before = await tree.locator(".bot-node").count();
  await tree.getByRole("button", { name: "Adicionar opção" }).click();
  await tree.locator(".bot-node").nth(before).waitFor();
  const node = tree.locator(".bot-node", { hasText: "Nova opção" }).last();
  await node.getByLabel("Título").fill(title);
  // An unsaved edit is said beside its save button (#41), not as a toast.
  await node.getByText("Clique em salvar para registrar as alterações").waitFor({ timeout: 10_000 });
  await node.getByRole("button", { name: "Salvar opção" }).click();
  await tree.locator(".bot-title", { hasText: title }).waitFor({ timeout: 10_000 });
}

Deno.test({
  name: "QueuesPage renders queues on the server, validates, builds the bot tree, edits, deletes and patches rows live",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      // "The other side" is a second admin: the same user logging in twice would end the first session.
      const made = await admin.post("/users", { name: "Outra Admin", email: "admin2@demo.local", password: "demo1234", profile: "admin" });
      assert.ok(made.status < 300, JSON.stringify(made.body));
      const other = await server.login("admin2@demo.local");
      const seeded = await other.post("/queue", { name: "Financeiro", color: "#aa5500", prioridade: 0 });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");

        // The server's HTML already holds the queues.
        const html = await page.evaluate(async () => (await fetch("/queues", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Financeiro/);
        assert.match(html, /Vendas/);
        await page.goto(`${server.url}/queues`);
        const table = page.getByTestId("queues-table");
        await table.getByText("Financeiro").waitFor({ timeout: 20_000 });
        const names = await table.locator("tbody tr td:nth-child(2)").allTextContents();
        assert.deepEqual(names, ["Financeiro", "Suporte", "Vendas"], "prioridade ascending");

        // A new queue: no hours tab (scheduleType is not queue) and no bot tab (not saved yet).
        await page.getByRole("button", { name: "Adicionar fila" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByRole("tab", { name: "Dados da Fila" }).waitFor();
        assert.equal(await dialog.getByRole("tab", { name: "Horários de Atendimento" }).count(), 0);
        assert.equal(await dialog.getByRole("tab", { name: "Fluxo do Bot" }).count(), 0);
        await dialog.getByRole("tab", { name: "Integrações" }).click();
        await dialog.getByLabel("Integração").selectOption({ label: "Typebot" });
        await dialog.getByLabel("ID do Typebot").fill("bot-42");
        // Saving with the data tab's errors brings that tab back with the spec's messages.
        await dialog.getByTestId("queue-save").click();
        await dialog.getByText("Obrigatório").first().waitFor({ timeout: 10_000 });
        assert.equal(await dialog.getByRole("tab", { name: "Dados da Fila" }).getAttribute("data-state"), "active");
        await dialog.getByLabel("Nome").fill("C");
        await dialog.getByTestId("queue-save").click();
        await dialog.getByText("Muito curto!").waitFor({ timeout: 10_000 });
        await screenshot(page, "queues_dialog", ".toasts");
        await dialog.getByLabel("Nome").fill("Cobrança");
        await dialog.getByLabel("Prioridade").fill("3");
        await dialog.getByLabel("Mensagem de saudação").fill("Olá, tudo bem?");
        await dialog.getByLabel("Tempo de rodízio").selectOption({ label: "15 minutos" });
        await dialog.getByLabel("Ativar rodízio de atendentes").check();
        await dialog.getByTestId("queue-save").click();
        await page.getByText("Fila salva com sucesso!").waitFor({ timeout: 10_000 });
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Cobrança", { exact: true }).waitFor();
        const stored = (await other.get("/queue")).body.find((q: { name: string }) => q.name === "Cobrança");
        assert.equal(stored.prioridade, 3);
        assert.equal(stored.tempoRoteador, 15);
        assert.equal(stored.ativarRoteador, true);
        assert.equal(stored.typeChatbot, "typebot");
        assert.equal(stored.typebotId, "bot-42");
        assert.deepEqual(
          (await table.locator("tbody tr td:nth-child(2)").allTextContents()),
          ["Financeiro", "Suporte", "Vendas", "Cobrança"],
        );

        // With scheduleType = queue the hours tab appears, with the defaults and the ##:## mask.
        assert.equal((await other.put("/settings/scheduleType", { value: "queue" })).status, 200);
        await page.reload();
        await table.getByText("Cobrança", { exact: true }).waitFor({ timeout: 20_000 });
        await table.locator("tr", { hasText: "Cobrança" }).getByRole("button", { name: "Editar" }).click();
        await dialog.getByRole("tab", { name: "Horários de Atendimento" }).click();
        assert.equal(await dialog.getByLabel("Início — Segunda-feira").inputValue(), "08:00");
        assert.equal(await dialog.getByLabel("Fim — Sábado").inputValue(), "12:00");
        assert.equal(await dialog.getByLabel("Fim — Domingo").inputValue(), "00:00");
        assert.equal(await dialog.getByLabel("Início — Horário de almoço").inputValue(), "12:00");
        await dialog.getByLabel("Fim — Sábado").fill("13x30");
        assert.equal(await dialog.getByLabel("Fim — Sábado").inputValue(), "13:30");
        await dialog.getByLabel("Fim — Domingo").fill("99:99");
        await dialog.getByTestId("queue-save").click();
        await dialog.getByText("Invalid time").waitFor({ timeout: 10_000 });
        await screenshot(page, "queues_hours", ".toasts");
        await dialog.getByLabel("Fim — Domingo").fill("0000");
        await dialog.getByTestId("queue-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        const hours = (await other.get(`/queue/${stored.id}`)).body.schedules;
        assert.equal(hours.find((d: { weekdayEn: string }) => d.weekdayEn === "saturday").endTime, "13:30");

        // The bot flow: two roots, a child under the first, a move and a delete.
        await table.locator("tr", { hasText: "Cobrança" }).getByRole("button", { name: "Editar" }).click();
        await dialog.getByRole("tab", { name: "Fluxo do Bot" }).click();
        const tree = dialog.getByTestId("bot-tree");
        await tree.getByText("Nenhuma opção ainda").waitFor({ timeout: 10_000 });
        await addRoot(page, "Comercial");
        await addRoot(page, "Suporte técnico");
        assert.deepEqual(await menu(other, stored.id, -1), ["1:Comercial", "2:Suporte técnico"]);
        const comercial = (await other.get(`/queue-options?queueId=${stored.id}&parentId=-1`)).body[0];
        await tree.getByRole("button", { name: "Adicionar subopção de Comercial" }).click();
        const child = tree.locator(".bot-node .bot-level .bot-node").first();
        await child.getByText("Nova subopção").waitFor({ timeout: 10_000 });
        await child.getByLabel("Tipo").selectOption({ label: "Fila" });
        await child.getByLabel("Fila de destino").selectOption({ label: "Suporte" });
        await child.getByRole("button", { name: "Salvar opção" }).click();
        await page.getByText("Opção salva com sucesso!").waitFor({ timeout: 10_000 });
        const sub = (await other.get(`/queue-options?queueId=${stored.id}&parentId=${comercial.id}`)).body;
        assert.equal(sub.length, 1);
        assert.equal(sub[0].title, "Nova subopção");
        assert.equal(sub[0].queueType, "queue");
        assert.equal(sub[0].queueOptionsId, server.demo!.queueIds[0]);

        // Media on an option (its edit toggle reopens the form a save closed): attach a PDF, then remove it.
        const first = tree.locator(`[data-option-id="${comercial.id}"]`);
        const editComercial = tree.getByRole("button", { name: "Editar Comercial" });
        assert.equal(await editComercial.getAttribute("aria-pressed"), "false");
        await editComercial.click();
        const form = first.locator(".bot-form").first();
        await form.getByLabel("Anexo (imagem, vídeo ou PDF)").setInputFiles({
          name: "tabela.pdf",
          mimeType: "application/pdf",
          buffer: Buffer.from("%PDF-1.4 tabela"),
        });
        await form.getByRole("button", { name: "Salvar opção" }).click();
        await first.getByRole("img", { name: "tabela.pdf" }).waitFor({ timeout: 10_000 });
        assert.equal((await other.get(`/queue-options/${comercial.id}`)).body.mediaName, "tabela.pdf");
        await editComercial.click();
        await form.getByRole("link", { name: "tabela.pdf" }).waitFor({ timeout: 10_000 });
        await screenshot(page, "queues_bot", ".toasts");
        await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(page, "queues_bot_dark", ".toasts");
        await page.evaluate(() => document.documentElement.removeAttribute("data-theme"));
        await form.getByRole("button", { name: "Remover anexo" }).click();
        await form.getByText("O anexo será removido ao salvar.").waitFor();
        await form.getByRole("button", { name: "Salvar opção" }).click();
        await first.getByRole("img", { name: "tabela.pdf" }).waitFor({ state: "detached", timeout: 10_000 });
        assert.equal((await other.get(`/queue-options/${comercial.id}`)).body.mediaPath, null);

        await tree.getByRole("button", { name: "Mover Suporte técnico para cima" }).click();
        await tree.locator(".bot-level > .bot-node").first().getByText("Suporte técnico").waitFor({ timeout: 10_000 });
        assert.deepEqual(await menu(other, stored.id, -1), ["1:Suporte técnico", "2:Comercial"]);
        assert.equal(await tree.locator(`[data-option-id="${comercial.id}"] [data-testid="bot-number"]`).first().textContent(), "2");
        await tree.getByRole("button", { name: "Excluir Suporte técnico" }).click();
        await page.getByTestId("confirm").click();
        await tree.getByText("Suporte técnico").waitFor({ state: "detached", timeout: 10_000 });
        assert.deepEqual(await menu(other, stored.id, -1), ["1:Comercial"], "the sibling is renumbered");
        assert.equal(await tree.locator(`[data-option-id="${comercial.id}"] [data-testid="bot-number"]`).first().textContent(), "1");
        // An option added by another admin arrives live, numbered after the others.
        await other.post("/queue-options", { queueId: stored.id, title: "Via API" });
        const viaApi = tree.locator(".bot-level > .bot-node", { hasText: "Via API" });
        await viaApi.waitFor({ timeout: 10_000 });
        assert.equal(await viaApi.getByTestId("bot-number").textContent(), "2");
        // Collapse and expand the child level.
        await tree.getByRole("button", { name: "Recolher Comercial" }).click();
        await tree.getByText("Nova subopção").waitFor({ state: "detached" });
        await tree.getByRole("button", { name: "Expandir Comercial" }).press("Enter");
        await tree.getByText("Nova subopção").waitFor();
        await dialog.getByRole("button", { name: "Cancelar" }).click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });

        // Edit a queue's name.
        await table.locator("tr", { hasText: "Cobrança" }).getByRole("button", { name: "Editar" }).click();
        await dialog.getByLabel("Nome").fill("Cobrança e boletos");
        await dialog.getByTestId("queue-save").click();
        await table.getByText("Cobrança e boletos").waitFor({ timeout: 10_000 });

        // Changes by another admin arrive live.
        await other.put(`/queue/${seeded.body.id}`, { name: "Financeiro editado" });
        await table.getByText("Financeiro editado").waitFor({ timeout: 10_000 });
        const theirs = await other.post("/queue", { name: "Do outro lado", color: "#123abc", prioridade: 9 });
        await table.getByText("Do outro lado").waitFor({ timeout: 10_000 });
        await other.delete(`/queue/${theirs.body.id}`);
        await table.getByText("Do outro lado").waitFor({ state: "detached", timeout: 10_000 });

        // Delete with the §8 confirmation.
        await table.locator("tr", { hasText: "Cobrança e boletos" }).getByRole("button", { name: "Excluir" }).click();
        await page.getByText("Deseja realmente excluir esse registro?").waitFor();
        await page.getByRole("dialog").getByText("Exclusão de Registro").waitFor();
        await page.getByTestId("confirm").click();
        await table.getByText("Cobrança e boletos").waitFor({ state: "detached", timeout: 10_000 });
        assert.equal((await other.get(`/queue/${stored.id}`)).status, 404);
        assert.equal((await other.get(`/queue-options?queueId=${stored.id}`)).body.length, 0);
        await screenshot(page, "queues", ".toasts");

        // Phone width: the page and the dialog still fit.
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await table.getByText("Suporte", { exact: true }).waitFor({ timeout: 20_000 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
        assert.ok(overflow <= 0, `no page-wide horizontal scroll at 390 px (${overflow})`);
        await screenshot(page, "queues_phone");
        await table.locator("tr", { hasText: "Suporte" }).getByRole("button", { name: "Editar" }).click();
        await dialog.getByRole("tab", { name: "Fluxo do Bot" }).click();
        await dialog.getByTestId("bot-tree").waitFor();
        await addRoot(page, "Opção no celular");
        await tree.getByRole("button", { name: "Editar Opção no celular" }).click();
        await screenshot(page, "queues_bot_phone", ".toasts");

        // A supervisor opens the page but gets no add, edit or delete.
        const supervisor = await (await chrome.newContext()).newPage();
        await loginToShell(supervisor, server.url, "supervisor@demo.local");
        await supervisor.goto(`${server.url}/queues`);
        const supervisorTable = supervisor.getByTestId("queues-table");
        await supervisorTable.getByText("Vendas", { exact: true }).waitFor({ timeout: 20_000 });
        assert.equal(await supervisor.getByRole("button", { name: "Adicionar fila" }).count(), 0);
        assert.equal(await supervisorTable.getByRole("button", { name: "Editar" }).count(), 0);
        assert.equal(await supervisorTable.getByRole("button", { name: "Excluir" }).count(), 0);

        // An agent gets the server-rendered gate and no rows.
        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        const gated = await agent.evaluate(async () => (await fetch("/queues", { headers: { accept: "text/html" } })).text());
        assert.match(gated, /data-testid="gate-notice"[^>]*>Sem permissão para acessar!/);
        assert.doesNotMatch(gated, /Financeiro editado/);
        await agent.goto(`${server.url}/queues`);
        await agent.getByText("Sem permissão para acessar!").first().waitFor({ timeout: 10_000 });
        assert.equal(await agent.getByTestId("queues-table").count(), 0);
      } finally {
        await chrome.close();
      }
    });
  },
});
