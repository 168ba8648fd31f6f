/**
 * Browser test of /oportunidades (spec 002 §2.11): the first page with each opportunity's
 * linked-tickets count is in the server's HTML; add (with the schema's 'Too Short!'), rename,
 * delete with the §8 confirmation, search, another user's change live; 390 px in the dark
 * theme. Screenshots: oportunidades, oportunidades_phone_dark.
 */
import assert from "node:assert/strict";
import { demoTicket } from "./helpers/fixtures.ts";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "OportunidadesPage shows each opportunity's ticket count, adds, renames, deletes and patches rows live",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const venda = (await admin.post("/oportunidade", { name: "Venda de licenças" })).body;
      for (const number of ["5511955501001", "5511955501002"]) {
        const ticket = await demoTicket(server, number);
        assert.equal((await admin.put(`/tickets/${ticket.id}`, { oportunidadeId: venda.id })).status, 200);
      }
      const page = await signedInPage(chrome, server, "agent@demo.local");
      const html = await page.evaluate(async () => (await fetch("/oportunidades", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Venda de licenças/, "the first page is in the server's HTML");
      await page.goto(`${server.url}/oportunidades`);
      const table = page.getByTestId("oportunidades-table");
      const vendaRow = table.locator("tr", { hasText: "Venda de licenças" });
      await vendaRow.waitFor({ timeout: 20_000 });
      assert.equal(await vendaRow.getByTestId("oportunidade-tickets").textContent(), "2");

      // Add: the schema's message first, no call; then saved.
      await page.getByRole("button", { name: "Adicionar oportunidade" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("X");
      await dialog.getByTestId("oportunidade-save").click();
      await dialog.getByText("Muito curto!").waitFor({ timeout: 10_000 });
      await dialog.getByLabel("Nome").fill("Renovação anual");
      await dialog.getByTestId("oportunidade-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      const renovacao = table.locator("tr", { hasText: "Renovação anual" });
      await renovacao.waitFor();
      assert.equal(await renovacao.getByTestId("oportunidade-tickets").textContent(), "0");

      // Rename keeps the count; another user's change arrives live.
      await vendaRow.getByRole("button", { name: "Editar" }).click();
      await dialog.getByLabel("Nome").fill("Venda corporativa");
      await dialog.getByTestId("oportunidade-save").click();
      const renamed = table.locator("tr", { hasText: "Venda corporativa" });
      await renamed.waitFor({ timeout: 10_000 });
      assert.equal(await renamed.getByTestId("oportunidade-tickets").textContent(), "2");
      await admin.post("/oportunidade", { name: "Do supervisor" });
      await table.getByText("Do supervisor").waitFor({ timeout: 10_000 });
      await screenshot(page, "oportunidades");

      // Delete with the §8 confirmation, then search.
      await table.locator("tr", { hasText: "Do supervisor" }).getByRole("button", { name: "Excluir" }).click();
      await page.getByText("Deseja realmente excluir esse registro?").waitFor();
      await page.getByTestId("confirm").click();
      await table.getByText("Do supervisor").waitFor({ state: "detached", timeout: 10_000 });
      assert.equal((await admin.get("/oportunidade/?searchParam=supervisor")).body.count, 0);
      await page.getByRole("searchbox").fill("renova");
      await table.getByText("Venda corporativa").waitFor({ state: "detached", timeout: 10_000 });
      await table.getByText("Renovação anual").waitFor();

      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await table.getByText("Venda corporativa").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "oportunidades_phone_dark");
    });
  },
});
