/**
 * Browser test of / (spec 000 §2 Dashboard): the server's HTML holds the cards with today's
 * numbers, a new ticket moves "Aguardando atendimento" live, a card expands into its
 * breakdown, the queue filter refetches, Exportar downloads a real .xlsx, the charts draw;
 * phone width in the dark theme; screenshots.
 */
import assert from "node:assert/strict";
import { assertFitsWidth, hasChromium, screenshot, watchSocket } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { demoTicket } from "./helpers/fixtures.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "DashboardPage shows today's numbers from the server, follows tickets live, filters and exports",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1280, height: 900 } });
      const html = await page.evaluate(async () => (await fetch("/", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Atendimentos Receptivos/);
      assert.match(html, /Tempo Médio de Espera/);
      const socket = watchSocket(page);
      await page.goto(`${server.url}/`);
      const waiting = page.getByTestId("card-waiting-value");
      await waiting.waitFor({ timeout: 20_000 });
      const before = Number(await waiting.textContent());
      const api = (await admin.get("/dashboard")).body;
      assert.equal(before, api.pendingTicketsCount);

      // A customer writes in: the waiting card follows without a reload (once the page's socket
      // is up: an event before it is lost).
      await socket.ready();
      await demoTicket(server, "5511988887777", { name: "Cliente Ao Vivo" });
      await page.waitForFunction(
        (n) => Number(document.querySelector('[data-testid="card-waiting-value"]')?.textContent) === n,
        before + 1,
        { timeout: 10_000 },
      );

      // A card expands into its breakdown by queue.
      await page.getByTestId("card-waiting").locator("summary").click();
      await page.getByTestId("card-waiting").locator(".dash-breakdown li").first().waitFor();

      // Charts are drawn (canvas elements of chart.js).
      assert.ok(await page.locator(".dash-chart canvas").count() >= 3);
      await screenshot(page, "dashboard_desktop");

      // Queue filter: the request carries it and the numbers are the queue's.
      const [queueId] = server.demo!.queueIds;
      await page.getByTestId("dash-queue").selectOption(String(queueId));
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().includes("/dashboard?") && r.url().includes("queueIds")),
        page.getByRole("button", { name: "Filtrar" }).click(),
      ]);
      assert.match(decodeURIComponent(request.url()), new RegExp(`queueIds=\\[${queueId}\\]`));
      const filtered = (await admin.get(`/dashboard?queueIds=[${queueId}]`)).body;
      await page.waitForFunction(
        (n) => Number(document.querySelector('[data-testid="card-waiting-value"]')?.textContent) === n,
        filtered.pendingTicketsCount,
        { timeout: 10_000 },
      );

      // Exportar writes a spreadsheet.
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 20_000 }),
        page.getByRole("button", { name: "Exportar" }).click(),
      ]);
      assert.equal(download.suggestedFilename(), "dashboard.xlsx");
      const path = await download.path();
      const bytes = await Deno.readFile(path!);
      assert.deepEqual([...bytes.slice(0, 2)], [0x50, 0x4b], "an .xlsx (zip) file");

      // Phone width, dark theme.
      const phone = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 390, height: 844 } });
      await phone.goto(`${server.url}/`);
      await phone.getByTestId("card-created-value").waitFor({ timeout: 20_000 });
      await phone.evaluate(() => document.documentElement.setAttribute("data-theme", "dark"));
      await phone.waitForTimeout(300);
      await assertFitsWidth(phone, "the dashboard at 390 px");
      await screenshot(phone, "dashboard_phone_dark");

      // A plain user who opens / is told and taken to the inbox, never shown the numbers.
      const agent = await signedInPage(chrome, server, "agent@demo.local", { viewport: { width: 1280, height: 800 } });
      await agent.goto(`${server.url}/`);
      await agent.waitForURL(`${server.url}/tickets`, { timeout: 10_000 });
      assert.equal(await agent.getByTestId("card-created-value").count(), 0);
    });
  },
});
