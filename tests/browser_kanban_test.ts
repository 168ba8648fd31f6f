/**
 * Browser tests of /kanban (spec 002 §2.10): the board in the server's HTML, lanes with lead
 * values, a card dragged between lanes by the mouse changing the ticket's tags (the two §8
 * toasts) and moving on another user's board (two contexts), keyboard moves (arrow keys and
 * the 'Mover para…' menu), the search, 390 px light and dark, and the useKanban gate.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { getTicket } from "../actors/tickets/mod.ts";
import { assertFitsWidth, hasChromium, screenshot, watchSocket } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { demoTicket } from "./helpers/fixtures.ts";
import type { TestServer } from "./helpers/server.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

const lane = (page: Page, name: string) => page.getByTestId("kanban-lane").filter({ has: page.getByRole("heading", { name }) });
const card = (page: Page, name: string) => page.getByTestId("kanban-card").filter({ hasText: name });

async function tagsOf(server: TestServer, ticketId: number): Promise<number[]> {
  return (await getTicket(server.deps.system, server.demo!.companyId, ticketId))!.tagIds;
}

async function eventually(check: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test({
  name: "KanbanPage renders lanes with lead values, moves cards by mouse, keys and menu, live on another board",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const lanes = (await admin.get("/tags/kanban")).body.lista as Array<{ id: number; name: string }>;
      const hot = lanes.find((l) => l.name === "Lead quente")!;
      const proposal = (await admin.post("/tags", { name: "Proposta", color: "#0ea5e9", kanban: 1, order: 5 })).body;
      const vip = (await admin.post("/tags", { name: "Cliente VIP Kanban" })).body;
      const maria = await demoTicket(server, "5511966660001", { name: "Maria Lead" });
      const joao = await demoTicket(server, "5511966660002", { name: "João Frio" });
      await admin.put(`/contacts/${maria.contactId}`, { extraInfo: [{ name: "Valor do Lead", value: "R$ 1.234,56" }, { name: "Origem", value: "Site" }] });
      await admin.put(`/contacts/${joao.contactId}`, { extraInfo: [{ name: "Valor do Lead", value: "1000" }] });
      await admin.post("/tags/sync", { ticketId: maria.id, tags: [vip.id, hot.id] });

      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1400, height: 900 } });
      // The server's HTML already holds the board.
      const html = await page.evaluate(async () => (await fetch("/kanban", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Maria Lead/);
      assert.match(html, /data-island="KanbanPage"/);
      await page.goto(`${server.url}/kanban`);
      await card(page, "Maria Lead").waitFor({ timeout: 20_000 });
      await lane(page, "Lead quente").getByText("Maria Lead").waitFor();
      await lane(page, "Em aberto").getByText("João Frio").waitFor();
      await lane(page, "Lead quente").getByTestId("kanban-lead-value").getByText(/1\.234,56/).waitFor();
      await lane(page, "Em aberto").getByTestId("kanban-lead-value").getByText(/1\.000,00/).waitFor();
      await card(page, "Maria Lead").getByText("Origem").waitFor();

      // The other user's board, in its own browser context.
      const other = await signedInPage(chrome, server, "supervisor@demo.local", { viewport: { width: 1400, height: 900 } });
      const otherSocket = watchSocket(other);
      await other.goto(`${server.url}/kanban`);
      await lane(other, "Lead quente").getByText("Maria Lead").waitFor({ timeout: 20_000 });
      // Its board follows the moves below live: its socket is up first (an event before it is lost).
      await otherSocket.ready();

      // Mouse: drag Maria from 'Lead quente' to 'Proposta'; both toasts; the plain tag stays.
      await card(page, "Maria Lead").dragTo(lane(page, "Proposta"));
      await page.getByText("Ticket Tag Removido!").waitFor({ timeout: 10_000 });
      await page.getByText("Ticket Tag Adicionado com Sucesso!").waitFor({ timeout: 10_000 });
      await lane(page, "Proposta").getByText("Maria Lead").waitFor();
      await eventually(async () => (await tagsOf(server, maria.id)).join() === [vip.id, proposal.id].join(), "Maria's tags");
      // Live on the other board: the card and the lead values move.
      await lane(other, "Proposta").getByText("Maria Lead").waitFor({ timeout: 10_000 });
      assert.equal(await lane(other, "Lead quente").getByText("Maria Lead").count(), 0);
      await lane(other, "Proposta").getByTestId("kanban-lead-value").getByText(/1\.234,56/).waitFor();
      await lane(other, "Lead quente").getByTestId("kanban-lead-value").getByText(/0,00/).waitFor();
      await screenshot(page, "kanban");

      // Keyboard: the arrow key moves João from 'Em aberto' to the next lane, focus follows.
      await card(page, "João Frio").focus();
      await page.keyboard.press("ArrowRight");
      await lane(page, "Lead quente").getByText("João Frio").waitFor({ timeout: 10_000 });
      await eventually(async () => (await tagsOf(server, joao.id)).join() === String(hot.id), "João in 'Lead quente'");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent?.includes("João Frio")), true);
      await lane(other, "Lead quente").getByText("João Frio").waitFor({ timeout: 10_000 });

      // The 'Mover para…' menu, by keyboard: João back to 'Em aberto' (only the DELETE).
      await card(page, "João Frio").getByTestId("kanban-move").focus();
      await page.keyboard.press("Enter");
      await page.getByRole("menuitem", { name: "Mover para Em aberto" }).waitFor();
      await page.keyboard.press("ArrowDown");
      await page.getByRole("menuitem", { name: "Mover para Em aberto" }).click();
      await lane(page, "Em aberto").getByText("João Frio").waitFor({ timeout: 10_000 });
      await eventually(async () => (await tagsOf(server, joao.id)).length === 0, "João untagged");
      await lane(other, "Em aberto").getByText("João Frio").waitFor({ timeout: 10_000 });

      // A ticket that arrives while the board is open shows up; search narrows the board.
      await demoTicket(server, "5511966660003", { name: "Carla Nova" });
      await lane(page, "Em aberto").getByText("Carla Nova").waitFor({ timeout: 10_000 });
      await page.getByRole("searchbox").fill("Maria");
      await card(page, "João Frio").waitFor({ state: "detached", timeout: 10_000 });
      await card(page, "Maria Lead").waitFor();
      await page.getByRole("searchbox").fill("");
      await card(page, "João Frio").waitFor({ timeout: 10_000 });

      // Spy (managers): the conversation opens read-only.
      await card(page, "Maria Lead").getByTestId("kanban-spy").click();
      await page.getByTestId("spy-dialog").waitFor({ timeout: 10_000 });
      await page.getByTestId("spy-close").click();

      // Phone width, light then dark: lanes scroll inside the board, the page does not.
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await card(page, "João Frio").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "kanban_phone");
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.reload();
      await card(page, "João Frio").waitFor({ timeout: 20_000 });
      assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
      await assertFitsWidth(page);
      await screenshot(page, "kanban_phone_dark");
      const scrolls = await page.getByTestId("kanban-board").evaluate((el) => el.scrollWidth > el.clientWidth);
      assert.ok(scrolls, "the lanes scroll sideways inside the board");
    });
  },
});

Deno.test({
  name: "KanbanPage is gated by the plan's useKanban: the upgrade message, then /",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const owner = await server.login("super@balcao.local");
      assert.equal((await owner.put(`/plans/${server.demo!.planId}`, { useKanban: false })).status, 200);
      const page = await signedInPage(chrome, server, "agent@demo.local");
      await page.goto(`${server.url}/kanban`);
      await page.getByTestId("gate-notice").getByText(/Você não possui acesso a este recurso!/).waitFor({ timeout: 20_000 });
      assert.equal(await page.getByTestId("kanban-board").count(), 0);
      await page.waitForURL(`${server.url}/`, { timeout: 10_000 });
    });
  },
});

Deno.test({
  name: "KanbanPage: a contact edit heard while the board reloads stays when the reload answers",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const maria = await demoTicket(server, "5511966660011", { name: "Maria Lenta" });
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1400, height: 900 } });
      const socket = watchSocket(page);
      await page.goto(`${server.url}/kanban`);
      await card(page, "Maria Lenta").waitFor({ timeout: 20_000 });
      await socket.ready();

      // The board's next reload is answered by the server at once (Maria's old name) and handed
      // to the page only after the rename's event arrived.
      const answered = Promise.withResolvers<void>();
      const release = Promise.withResolvers<void>();
      let held = false;
      await page.route((url) => url.pathname === "/tickets/kanban", async (route) => {
        if (held) return await route.continue();
        held = true;
        const response = await route.fetch();
        answered.resolve();
        await release.promise;
        await route.fulfill({ response });
      });
      // A ticket the board lacks makes it reload.
      await demoTicket(server, "5511966660012", { name: "Novo Lead" });
      await answered.promise;
      assert.equal((await admin.put(`/contacts/${maria.contactId}`, { name: "Maria Renomeada" })).status, 200);
      await card(page, "Maria Renomeada").waitFor({ timeout: 10_000 });

      release.resolve();
      await card(page, "Novo Lead").waitFor({ timeout: 10_000 });
      assert.equal(await card(page, "Maria Lenta").count(), 0);
      assert.equal(await card(page, "Maria Renomeada").count(), 1);
    });
  },
});
