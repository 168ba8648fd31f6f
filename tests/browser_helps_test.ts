/**
 * Browser tests of /helps (spec 001 §2.9): the entries and their players are in the server's
 * HTML for any user; the WhatsApp support button follows the platform's `wasupport` setting
 * (hidden without one); the platform owner's changes arrive live; the filter; the empty
 * state; phone width.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot, watchSocket } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "HelpsPage renders entries with players on the server, links the support number and follows live changes",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const owner = await server.login("super@balcao.local");
      const first = await owner.post("/helps", { title: "Respostas rápidas", description: "Use / no chat para inserir uma resposta.", video: "dQw4w9WgXcQ" });
      const second = await owner.post("/helps", { title: "Filas e chatbot", description: "Organize os atendimentos por filas.", video: "https://vimeo.com/76979871" });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(second.status, 201);
      assert.equal((await owner.put("/settings/wasupport", { value: "+55 (11) 99999-0000" })).status, 200);
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        const socket = watchSocket(page);
        await loginToShell(page, server.url, "agent@demo.local");

        // The server's HTML holds both entries with their players.
        const html = await page.evaluate(async () => (await fetch("/helps", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Respostas rápidas/);
        assert.match(html, /Filas e chatbot/);
        assert.match(html, /<iframe[^>]+src="https:\/\/www\.youtube\.com\/embed\/dQw4w9WgXcQ"/);
        assert.match(html, /<iframe[^>]+src="https:\/\/player\.vimeo\.com\/video\/76979871"/);

        await page.goto(`${server.url}/helps`);
        const list = page.getByTestId("help-list");
        await list.getByText("Filas e chatbot").waitFor({ timeout: 20_000 });
        assert.equal(await list.getByTestId("help-card").count(), 4, "the demo's two entries and the two new ones");
        assert.equal(await list.locator("iframe").count(), 2, "entries without a video code have no player");
        const support = page.getByTestId("help-support");
        assert.equal(await support.getAttribute("href"), "https://wa.me/5511999990000");
        assert.equal(await support.getAttribute("target"), "_blank");
        assert.match(await support.innerText(), /Suporte pelo WhatsApp/);

        // The platform owner's changes arrive live (once the page's socket is up: an event
        // before it is lost).
        await socket.ready();
        const third = (await owner.post("/helps", { title: "Agendamentos", description: "Agende mensagens.", video: "" })).body;
        await list.getByText("Agendamentos").waitFor({ timeout: 10_000 });
        await owner.put(`/helps/${first.body.id}`, { title: "Respostas rápidas (atalhos)", description: "Digite /", video: "dQw4w9WgXcQ" });
        await list.getByText("Respostas rápidas (atalhos)").waitFor({ timeout: 10_000 });
        await owner.delete(`/helps/${third.id}`);
        await list.getByText("Agendamentos").waitFor({ state: "detached", timeout: 10_000 });

        // The filter narrows the cards; a miss says so.
        await page.getByRole("searchbox").fill("chatbot");
        await list.getByText("Respostas rápidas (atalhos)").waitFor({ state: "detached", timeout: 10_000 });
        assert.equal(await list.getByTestId("help-card").count(), 1);
        await page.getByRole("searchbox").fill("nada disso");
        await page.getByText("Nenhum conteúdo de ajuda encontrado para esta pesquisa.").waitFor();
        await page.getByRole("searchbox").fill("");
        await list.getByText("Respostas rápidas (atalhos)").waitFor();
        await screenshot(page, "helps");

        // Phone width: the cards stack and the page fits.
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await list.getByText("Filas e chatbot").waitFor({ timeout: 20_000 });
        await assertFitsWidth(page, "/helps");
        await screenshot(page, "helps_phone");
        await page.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
        await screenshot(page, "helps_phone_dark");

        // No number set: no button. No entries: the empty state.
        assert.equal((await owner.put("/settings/wasupport", { value: "" })).status, 200);
        for (const help of (await owner.get("/helps/list")).body) await owner.delete(`/helps/${help.id}`);
        await page.setViewportSize({ width: 1280, height: 720 });
        await page.reload();
        await page.getByText("Nenhum conteúdo de ajuda publicado ainda.").waitFor({ timeout: 20_000 });
        assert.equal(await page.getByTestId("help-support").count(), 0);
        await screenshot(page, "helps_empty");
      } finally {
        await chrome.close();
      }
    });
  },
});
