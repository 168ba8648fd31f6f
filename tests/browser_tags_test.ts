/**
 * Browser tests of /tags (spec 001 §2.16) on the admin kit: the first page is in the
 * server's HTML, create/edit/delete through the dialog with the spec's validation messages,
 * live rows from another user's change, the plain user's read-only view, phone width.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "TagsPage renders its rows on the server, creates, validates, edits and deletes, and patches rows live",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const supervisor = await server.login("supervisor@demo.local");
      const seeded = await supervisor.post("/tags", { name: "Primeira", color: "#112233" });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");

        // The server's HTML already holds the first page (no spinner before content).
        const html = await page.evaluate(async () => (await fetch("/tags", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Primeira/);
        await page.goto(`${server.url}/tags`);
        const table = page.getByTestId("tags-table");
        await table.getByText("Primeira").waitFor({ timeout: 20_000 });

        // Validation: the schema's exact messages, checked in the browser by the server's
        // own zod schema (no call is made for an invalid form).
        const posts: string[] = [];
        page.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname === "/tags" && posts.push(r.url()));
        await page.getByRole("button", { name: "Adicionar tag" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByTestId("tag-save").click();
        await dialog.getByText("Obrigatório").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Nome").fill("ab");
        await dialog.getByTestId("tag-save").click();
        await dialog.getByText("Mensagem muito curta").waitFor({ timeout: 10_000 });
        assert.deepEqual(posts, [], "invalid forms never reach the server");
        await dialog.getByLabel("Nome").fill("Urgente");
        await dialog.getByLabel("Kanban", { exact: true }).check();
        await dialog.getByTestId("tag-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Urgente").waitFor();
        const created = (await supervisor.get("/tags/?searchParam=Urgente")).body.tags[0];
        assert.equal(created.kanban, 1);

        // A change by another user arrives live.
        await supervisor.put(`/tags/${seeded.body.id}`, { name: "Primeira editada" });
        await table.getByText("Primeira editada").waitFor({ timeout: 10_000 });
        await supervisor.post("/tags", { name: "Do outro lado" });
        await table.getByText("Do outro lado").waitFor({ timeout: 10_000 });

        // Edit, then delete with the §8 confirmation.
        const row = table.locator("tr", { hasText: "Urgente" });
        await row.getByRole("button", { name: "Editar" }).click();
        await dialog.getByLabel("Nome").fill("Muito urgente");
        await dialog.getByTestId("tag-save").click();
        await table.getByText("Muito urgente").waitFor({ timeout: 10_000 });
        await table.locator("tr", { hasText: "Muito urgente" }).getByRole("button", { name: "Excluir" }).click();
        await page.getByText("Deseja realmente excluir esse registro?").waitFor();
        await page.getByRole("dialog").getByText("Exclusão de Registro").waitFor();
        await page.getByTestId("confirm").click();
        await table.getByText("Muito urgente").waitFor({ state: "detached", timeout: 10_000 });
        assert.equal((await supervisor.get("/tags/?searchParam=urgente")).body.tags.length, 0);

        // Search (debounced) narrows the table on the server.
        await page.getByRole("searchbox").fill("outro");
        await table.getByText("Primeira editada").waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Do outro lado").waitFor();
        await screenshot(page, "tags");

        // Phone width: the page still fits.
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await table.getByText("Do outro lado").waitFor({ timeout: 20_000 });
        await assertFitsWidth(page);
        await screenshot(page, "tags_phone");

        // A plain user sees the tags but no edit or delete.
        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        await agent.goto(`${server.url}/tags`);
        await agent.getByTestId("tags-table").getByText("Do outro lado").waitFor({ timeout: 20_000 });
        assert.equal(await agent.getByTestId("tags-table").getByRole("button", { name: "Excluir" }).count(), 0);
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "TagsPage shows a tag created while the page was still loading (its socket resumes from the render)",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "admin@demo.local");
      const supervisor = await server.login("supervisor@demo.local");
      // The islands' scripts arrive 1.5 s late, so the socket opens well after the render.
      await page.route("**/build/**", async (route) => {
        await new Promise((r) => setTimeout(r, 1500));
        await route.continue();
      });
      await page.goto(`${server.url}/tags`, { waitUntil: "commit" });
      assert.equal((await supervisor.post("/tags", { name: "Durante o carregamento" })).status, 200);
      await page.getByTestId("tags-table").getByText("Durante o carregamento").waitFor({ timeout: 20_000 });
    });
  },
});
