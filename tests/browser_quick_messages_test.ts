/**
 * Browser tests of /quick-messages (spec 001 §2.18, §5, §6): the first page is in the
 * server's HTML; create with the spec's validation (shortcode 'Obrigatório', message required
 * unless a file is attached, the file types refused in the browser); upload a media file and
 * remove it ('Sem anexo' again); edit; delete with the §8 confirmation; a change by another
 * user arriving live; a plain user who cannot edit a general reply; phone width.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const pdf = { name: "catalogo.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 demo") };
const exe = { name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from([77, 90]) };

Deno.test({
  name: "QuickMessagesPage renders on the server, validates, uploads and removes media, edits, deletes and patches rows live",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const supervisor = await server.login("supervisor@demo.local");
      const seeded = await supervisor.post("/quick-messages", { shortcode: "boasvindas", message: "Seja bem-vindo!", geral: true });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");

        // The server's HTML already holds the first page.
        const html = await page.evaluate(async () => (await fetch("/quick-messages", { headers: { accept: "text/html" } })).text());
        assert.match(html, /boasvindas/);
        assert.match(html, /Sem anexo/);
        await page.goto(`${server.url}/quick-messages`);
        const table = page.getByTestId("quick-messages-table");
        await table.getByText("/boasvindas").waitFor({ timeout: 20_000 });

        // Validation: shortcode and message 'Obrigatório'; a wrong file type refused in the browser.
        await page.getByRole("button", { name: "Adicionar resposta rápida" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByTestId("quick-message-save").click();
        await dialog.getByText("Obrigatório").nth(1).waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Atalho").fill("catalogo");
        await dialog.getByTestId("quick-message-save").click();
        await dialog.getByText("Obrigatório").waitFor();
        await dialog.getByTestId("quick-message-file-input").setInputFiles(exe);
        await dialog.getByText("Use somente arquivos .mp4, .mp3, .pdf, .txt, .png, .jpg ou .jpeg!").waitFor();
        assert.equal(await dialog.getByTestId("quick-message-file").count(), 0, "the refused file is not attached");

        // With a file the message is optional: create, then the file is uploaded.
        await dialog.getByTestId("quick-message-file-input").setInputFiles(pdf);
        await dialog.getByTestId("quick-message-file").getByText("catalogo.pdf").waitFor();
        await dialog.getByText("Obrigatório").waitFor({ state: "detached", timeout: 10_000 });
        await screenshot(page, "quick_messages_dialog");
        await dialog.getByTestId("quick-message-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        const row = () => table.locator("tr", { hasText: "/catalogo" });
        await row().getByText("catalogo.pdf").waitFor({ timeout: 10_000 });
        const created = (await supervisor.get("/quick-messages?searchParam=catalogo")).body.records[0];
        assert.equal(created.mediaName, "catalogo.pdf");
        assert.equal(created.geral, false);

        // Remove the file: the message becomes required, then the row says 'Sem anexo'.
        await row().getByRole("button", { name: "Editar" }).click();
        await dialog.getByRole("button", { name: "Remover anexo" }).click();
        await dialog.getByTestId("quick-message-save").click();
        await dialog.getByText("Obrigatório").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Mensagem").fill("Veja nosso catálogo");
        await dialog.getByLabel("Geral (compartilhada com toda a empresa)").check();
        await dialog.getByTestId("quick-message-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await row().getByText("Sem anexo").waitFor({ timeout: 10_000 });
        assert.equal(await row().getByRole("checkbox").isChecked(), true, "the general check shows");
        const edited = (await supervisor.get(`/quick-messages/${created.id}`)).body;
        assert.deepEqual([edited.mediaName, edited.message, edited.geral], [null, "Veja nosso catálogo", true]);

        // Changes by another user arrive live.
        await supervisor.put(`/quick-messages/${seeded.body.id}`, { shortcode: "bemvindo" });
        await table.getByText("/bemvindo").waitFor({ timeout: 10_000 });
        await supervisor.post("/quick-messages", { shortcode: "dooutrolado", message: "Privada do supervisor" });
        await table.getByText("/dooutrolado").waitFor({ timeout: 10_000 });

        // Delete with the §8 confirmation.
        await row().getByRole("button", { name: "Excluir" }).click();
        await page.getByRole("dialog").getByText("Exclusão de Registro").waitFor();
        await page.getByText("Deseja realmente excluir esse registro?").waitFor();
        await page.getByTestId("confirm").click();
        await row().waitFor({ state: "detached", timeout: 10_000 });
        assert.equal((await supervisor.get(`/quick-messages/${created.id}`)).status, 404);

        // Search (debounced) narrows the table on the server.
        await page.getByRole("searchbox").fill("outro");
        await table.getByText("/bemvindo").waitFor({ state: "detached", timeout: 10_000 });
        await page.getByRole("searchbox").fill("");
        await table.getByText("/bemvindo").waitFor({ timeout: 10_000 });
        await screenshot(page, "quick_messages");

        // Phone width: the page still fits.
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await table.getByText("/bemvindo").waitFor({ timeout: 20_000 });
        await assertFitsWidth(page, "/quick-messages");
        await screenshot(page, "quick_messages_phone");
        await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(page, "quick_messages_phone_dark");

        // A plain user: no edit on a general reply, no general flag, its own reply editable.
        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        await agent.goto(`${server.url}/quick-messages`);
        const agentTable = agent.getByTestId("quick-messages-table");
        await agentTable.getByText("/bemvindo").waitFor({ timeout: 20_000 });
        assert.equal(await agentTable.getByText("/dooutrolado").count(), 0, "another user's private reply stays hidden");
        assert.equal(await agentTable.getByRole("button", { name: "Editar" }).count(), 0, "general replies are read-only");
        await agent.getByRole("button", { name: "Adicionar resposta rápida" }).click();
        const agentDialog = agent.getByRole("dialog");
        assert.equal(await agentDialog.getByText("Geral (compartilhada com toda a empresa)").count(), 0);
        await agentDialog.getByLabel("Atalho").fill("minha");
        await agentDialog.getByLabel("Mensagem").fill("Minha resposta");
        await agentDialog.getByTestId("quick-message-save").click();
        await agentDialog.waitFor({ state: "detached", timeout: 10_000 });
        const mine = agentTable.locator("tr", { hasText: "/minha" });
        await mine.getByRole("button", { name: "Editar" }).waitFor({ timeout: 10_000 });
        assert.equal(await agentTable.locator("tr", { hasText: "/bemvindo" }).getByRole("button", { name: "Excluir" }).count(), 0);
        // The manager's page receives the agent's private reply live.
        await table.getByText("/minha").waitFor({ timeout: 10_000 });
      } finally {
        await chrome.close();
      }
    });
  },
});
