/**
 * Browser test of the demo's thirty days (issue #37, server/seed/history): after a fresh start
 * with the history, the screens a new user opens first show figures, and each agrees with the
 * API behind it: the dashboard over the month (tickets, messages, ratings) and its live counts,
 * the ticket report, the kanban's lanes with lead values, the ratings, the finished campaign's
 * report, the calendar's schedules, the internal chat, the opportunities and the paid invoice.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

/** The number a figure shows ("1.234" or "4,6" as pt writes them). */
async function figure(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).first().textContent()) ?? "";
  const match = /-?[\d.]+(,\d+)?/.exec(text);
  return match ? Number(match[0].replaceAll(".", "").replace(",", ".")) : NaN;
}

/** `ms` as a datetime-local input value in the browser's zone (the test's, as the page's). */
function localInput(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

Deno.test({
  name: "The demo's history fills the dashboard, reports, kanban, ratings and campaign report of a fresh start",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const history = server.history!;
      assert.ok(history, "the test server played the demo's history");
      console.log(`Demo history in a test server: ${history.conversations} conversations, ${history.ms} ms`);
      const admin = await server.login("admin@demo.local");
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1400, height: 900 } });

      // Dashboard: the live counts as the page opens, then the month's figures once filtered.
      await page.goto(`${server.url}/`);
      await page.getByTestId("card-waiting-value").waitFor({ timeout: 20_000 });
      const now = (await admin.get("/dashboard")).body;
      assert.ok(now.pendingTicketsCount > 0 && now.openTicketsCount > 0, JSON.stringify(now).slice(0, 300));
      assert.equal(await figure(page, "card-waiting-value"), now.pendingTicketsCount);
      await page.getByTestId("dash-from").fill(localInput(history.from));
      await page.getByTestId("dash-to").fill(localInput(Date.now() + 60_000));
      await page.getByRole("button", { name: "Filtrar" }).click();
      const month = (await admin.get(
        `/dashboard?date_from=${new Date(history.from).toISOString()}&date_to=${new Date(Date.now() + 60_000).toISOString()}`,
      )).body;
      for (const [card, value] of [
        ["card-created-value", month.totalCreatedTicketsCount.count],
        ["card-finished-value", month.finishedTicketCount.count],
        ["card-sent-value", month.sentMessagesCount],
        ["card-received-value", month.receivedMessagesCount],
      ] as const) {
        assert.ok(value > 50, `${card}: ${value}`);
        await page.waitForFunction(
          ([id, n]) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.replace(/\D/g, "") === String(n),
          [card, value] as const,
          { timeout: 10_000 },
        );
      }
      assert.ok(month.finishedTicketCount.count <= month.totalCreatedTicketsCount.count);
      assert.ok(await figure(page, "card-ratings-value") > 0, "ratings on the dashboard");
      await screenshot(page, "demo_history_dashboard");

      // Reports: every ticket of the month, the same count the dashboard's month created.
      await page.goto(`${server.url}/relatorios`);
      const range = page.getByTestId("report-pager").locator(".pager-range");
      await range.waitFor({ timeout: 20_000 });
      const report = (await admin.get("/ticketreport/reports?page=1&pageSize=10")).body;
      const total = Number(/(\d+)\D*$/.exec((await range.textContent()) ?? "")?.[1]);
      assert.ok(total >= history.tickets, `report total ${total}`);
      assert.equal(total, report.totalTickets.total);
      assert.equal(await page.getByTestId("report-table").locator("tbody tr").count(), 10);

      // Kanban: lanes with cards and lead values (the sellers' leads).
      await page.goto(`${server.url}/kanban`);
      await page.getByTestId("kanban-card").first().waitFor({ timeout: 20_000 });
      const cards = await page.getByTestId("kanban-card").count();
      // The board of a manager asks with showAll (islands/kanban/query.ts).
      const kanban = (await admin.get("/tickets/kanban?showAll=true")).body.tickets;
      assert.equal(cards, kanban.length);
      const values = await page.getByTestId("kanban-lead-value").allTextContents();
      assert.ok(values.some((v) => /[1-9]/.test(v.replace(/0,00/g, ""))), `lead values: ${values.join(" | ")}`);

      // Ratings: the survey the month used, and its answers on the dashboard's table.
      await page.goto(`${server.url}/ratings`);
      await page.getByTestId("ratings-table").getByText("Satisfação do atendimento").waitFor({ timeout: 20_000 });

      // The finished campaign's report: every valid contact delivered.
      const campaigns = (await admin.get("/campaigns")).body.records as Array<{ id: number; status: string }>;
      const done = campaigns.find((c) => c.status === "FINALIZADA")!;
      assert.ok(done, "a finished campaign");
      assert.ok(campaigns.some((c) => c.status === "PROGRAMADA"), "a programmed campaign");
      await page.goto(`${server.url}/campaign/${done.id}/report`);
      await page.getByTestId("campaign-card-delivered").waitFor({ timeout: 20_000 });
      const counts = (await admin.get(`/campaigns/${done.id}/report`)).body.counts;
      assert.ok(counts.delivered > 0 && counts.delivered === counts.validContacts, JSON.stringify(counts));
      await page.waitForFunction(
        (n) => document.querySelector('[data-testid="campaign-card-delivered"] strong')?.textContent === String(n),
        counts.delivered,
        { timeout: 10_000 },
      );
      await screenshot(page, "demo_history_campaign_report");

      // The unread bell holds only conversations still waiting (the month's were read as answered).
      const unread = (await admin.get("/tickets?withUnreadMessages=true")).body.tickets as Array<{ status: string }>;
      assert.ok(unread.length > 0 && unread.every((t) => t.status !== "closed"), JSON.stringify(unread.map((t) => t.status)));

      // The rest of the month through the API the other screens read.
      const schedules = (await admin.get("/schedules")).body.schedules as Array<{ sendAt: string; status: string }>;
      assert.ok(schedules.length >= 3 && schedules.every((s) => Date.parse(s.sendAt) > Date.now() && s.status === "PENDENTE"));
      const chats = (await admin.get("/chats")).body.records;
      assert.ok(chats.length >= 1 && chats[0].lastMessage);
      const oportunidades = (await admin.get("/oportunidade")).body.oportunidades as Array<{ ticketsCount: number }>;
      assert.ok(oportunidades.some((o) => o.ticketsCount > 0));
      const invoices = (await admin.get("/invoices/all")).body.invoices as Array<{ status: string }>;
      assert.ok(invoices.some((i) => i.status === "paid") && invoices.some((i) => i.status === "open"), JSON.stringify(invoices));
    }, { demoHistory: true });
  },
});
