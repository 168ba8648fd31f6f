/**
 * The inbox's search tab while the message index builds (issue #23 §1): the list says its
 * results are partial ("Resultados parciais: índice em construção…"), asks again by itself,
 * and shows the match without the note once the index is built. 390 px, dark theme.
 */
import assert from "node:assert/strict";
import { messageSearch } from "../actors/messages/search_index.ts";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { seedFiller } from "./helpers/search_filler.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "TicketsPage search: partial results while the message index builds, then the match",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const companyId = server.demo!.companyId;
      const needle = await receive(server, inboundText(freshNumber(), "achei uma agulha no palheiro", { name: "Dona Rosa" }));
      await seedFiller(server.deps.system.kv, companyId, needle.ticketId + 1000, 800, 100);
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 390, height: 844 } });
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.goto(`${server.url}/tickets`);
      assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
      await page.getByRole("tab", { name: "Busca" }).click();
      // As after a start: the index is gone and the search below begins its build.
      messageSearch(server.deps.system).drop(companyId);
      await page.getByLabel("Pesquisar atendimento e mensagens").fill("agulha");
      const note = page.getByTestId("search-partial");
      const match = page.locator('[data-testid="list-search"] .ticket-row', { hasText: "Dona Rosa" });
      await note.waitFor({ timeout: 15_000 });
      // Its message is among the oldest (the pass reads the newest tickets first) and its
      // contact's name does not match: it shows only once the index is built.
      assert.equal(await match.count(), 0);
      await screenshot(page, "tickets_search_partial_390_dark");
      await assertFitsWidth(page, "the inbox with the partial note");

      await match.waitFor({ timeout: 120_000 });
      await note.waitFor({ state: "detached", timeout: 15_000 });
      await screenshot(page, "tickets_search_complete_390_dark");
    });
  },
});
