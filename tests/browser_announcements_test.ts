/** Browser test of the top bar's announcements bell (spec 000 §2) against a real server (Chromium). */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { unreadFor } from "../actors/announcements/reads.ts";
import { withServer } from "./helpers/server.ts";
import { hasChromium, loginToShell, screenshot, withPage } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "AnnouncementsBell shows a red dot, lists by priority, views with Next and an embedded video, and 'Mark all as read' clears it",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const owner = await server.login("super@balcao.local");
      const urgent = await owner.post("/announcements", {
        title: "Manutenção urgente",
        text: "Hoje às 22h.\nVeja: https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        priority: 1,
      });
      assert.equal(urgent.status, 201, JSON.stringify(urgent.body));

      await withPage(async (page) => {
        await loginToShell(page, server.url, "agent@demo.local");
        const dot = page.getByTestId("announcements-dot");
        await dot.waitFor({ timeout: 20_000 });

        await page.getByTestId("announcements-bell").click();
        const items = page.locator(".announcement-item strong");
        await items.first().waitFor({ timeout: 10_000 });
        assert.deepEqual(await items.allTextContents(), ["Manutenção urgente", "Bem-vindo ao Balcão!"]);
        assert.match((await page.locator(".announcement-item").first().getAttribute("class")) ?? "", /priority-1/);
        await screenshot(page, "announcements_list");

        await items.first().click();
        const viewer = page.getByRole("dialog");
        await viewer.getByRole("heading", { name: "Manutenção urgente" }).waitFor({ timeout: 10_000 });
        const embed = viewer.locator("iframe.announcement-embed");
        assert.equal(await embed.getAttribute("src"), "https://www.youtube.com/embed/dQw4w9WgXcQ");
        assert.equal(await viewer.getByRole("button", { name: "Anterior" }).isDisabled(), true);
        await screenshot(page, "announcements_viewer");

        await viewer.getByRole("button", { name: "Próximo" }).click();
        await viewer.getByRole("heading", { name: "Bem-vindo ao Balcão!" }).waitFor({ timeout: 10_000 });
        assert.equal(await viewer.getByRole("button", { name: "Próximo" }).isDisabled(), true);

        await viewer.getByRole("button", { name: "Marcar todos como lidos" }).click();
        await dot.waitFor({ state: "detached", timeout: 10_000 });
        await viewer.waitFor({ state: "detached", timeout: 10_000 });
        // (Read on the server directly: a second login of the agent would end the page's session.)
        const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
        const reader = { id: agentId, companyId: server.demo!.companyId };
        assert.deepEqual(await unreadFor(server.deps.system, reader), [], "the marks are stored on the server");

        // A new announcement arrives live (company-announcement) and brings the dot back.
        await owner.post("/announcements", { title: "Novidade", text: "x" });
        await dot.waitFor({ timeout: 10_000 });
      });
    });
  },
});

Deno.test({
  name: "AnnouncementsPage lets the super user add (with 'Obrigatório' checks and an image), edit and delete an announcement",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      await withPage(async (page) => {
        await loginToShell(page, server.url, "super@balcao.local");
        await page.goto(`${server.url}/announcements`);
        const rows = page.getByTestId("announcement-row");
        await rows.filter({ hasText: "Bem-vindo ao Balcão!" }).waitFor({ timeout: 20_000 });

        await page.getByRole("button", { name: "Novo informativo" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByRole("button", { name: "Salvar" }).click();
        assert.equal(await dialog.getByText("Obrigatório").count(), 2, "title and text are required");

        await dialog.locator('input[name="title"]').fill("Nova versão");
        await dialog.locator('textarea[name="text"]').fill("Chegou a versão 2.0");
        await dialog.locator('select[name="priority"]').selectOption("1");
        const png = { name: "banner.png", mimeType: "image/png", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) };
        await dialog.locator('input[type="file"]').setInputFiles(png);
        await screenshot(page, "announcements_dialog");
        await dialog.getByRole("button", { name: "Salvar" }).click();
        await page.getByText("Informativo salvo com sucesso!").waitFor({ timeout: 10_000 });
        const row = rows.filter({ hasText: "Nova versão" });
        await row.waitFor({ timeout: 10_000 });
        assert.match(await row.innerText(), /Alta[\s\S]*Ativo[\s\S]*banner\.png/);
        await screenshot(page, "announcements_page");

        await row.getByRole("button", { name: "Editar" }).click();
        await dialog.locator('input[name="title"]').fill("Nova versão 2.1");
        await dialog.getByRole("button", { name: "Salvar" }).click();
        await rows.filter({ hasText: "Nova versão 2.1" }).waitFor({ timeout: 10_000 });

        await rows.filter({ hasText: "Nova versão 2.1" }).getByRole("button", { name: "Excluir" }).click();
        await page.getByTestId("confirm").click();
        await page.getByText("Informativo excluído com sucesso!").waitFor({ timeout: 10_000 });
        await rows.filter({ hasText: "Nova versão" }).waitFor({ state: "detached", timeout: 10_000 });
        const owner = await server.login("super@balcao.local");
        assert.deepEqual((await owner.get("/announcements")).body.records.map((r: { title: string }) => r.title), ["Bem-vindo ao Balcão!"]);
      });
    });
  },
});
