/**
 * Issue #41, bug 4: with the browser's clock in UTC and the company in America/Sao_Paulo, the
 * dashboard's pickers show the spec's default range (today 08:00–18:00) on the company's clock
 * and send it so, the zone is named, an empty range in a busy day says so, and the report's
 * day filter is the company's day.
 */
import assert from "node:assert/strict";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { hasChromium, screenshot } from "./helpers/browser.ts";
import { demoTicket } from "./helpers/fixtures.ts";
import { fromWallClock, wallClock } from "../domain/zoned_time.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const SP = "America/Sao_Paulo";

Deno.test({
  name: "Dashboard and report pick and show dates in the company's zone from a browser in UTC, and say when the range is empty but the day is not",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const me = (await admin.get("/auth/me")).body;
      const adminId: number = me.id ?? me.user?.id;
      // A ticket accepted and resolved now (whatever the hour on the company's clock).
      const ticket = await demoTicket(server, "5511966661234", { name: "Cliente Madrugada" });
      assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
      assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "closed", sendFarewellMessage: false })).status, 200);

      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1366, height: 800 }, timezoneId: "UTC" });
      await page.goto(`${server.url}/`);
      const today = wallClock(Date.now(), SP).slice(0, 10);
      const from = page.getByTestId("dash-from");
      await from.waitFor({ timeout: 20_000 });
      assert.equal(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), "UTC");
      assert.equal(await from.inputValue(), `${today}T08:00`);
      assert.equal(await page.getByTestId("dash-to").inputValue(), `${today}T18:00`);
      await page.getByTestId("dash-zone").getByText(/America\/Sao_Paulo \(UTC−03:00\)/).waitFor();

      // An hour of today with no activity: the cards are 0 and the page says why.
      const hour = Number(wallClock(Date.now(), SP).slice(11, 13));
      const [a, b] = hour < 12 ? ["20:00", "21:00"] : ["03:00", "04:00"];
      await from.fill(`${today}T${a}`);
      await page.getByTestId("dash-to").fill(`${today}T${b}`);
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().includes("/dashboard?")),
        page.getByRole("button", { name: "Filtrar" }).click(),
      ]);
      const sent = new URL(request.url()).searchParams;
      assert.equal(sent.get("date_from"), new Date(fromWallClock(`${today}T${a}`, SP)).toISOString());
      const notice = page.getByTestId("dash-day-notice");
      await notice.waitFor({ timeout: 10_000 });
      assert.match(await notice.innerText(), /1 aceito\(s\) e 1 finalizado\(s\)/);
      assert.equal(await page.getByTestId("card-finished-value").innerText(), "0");
      await screenshot(page, "dashboard_company_zone");

      // The report: today's company day finds the ticket, and its bounds are the company's.
      await page.goto(`${server.url}/relatorios`);
      await page.getByTestId("report-zone").getByText(/America\/Sao_Paulo/).waitFor({ timeout: 20_000 });
      await page.getByLabel("Data inicial").fill(today);
      await page.getByLabel("Data final").fill(today);
      const [report] = await Promise.all([
        page.waitForRequest((r) => r.url().includes("/ticketreport/reports?") && r.url().includes("dateFrom")),
        page.getByTestId("report-apply").click(),
      ]);
      assert.equal(new URL(report.url()).searchParams.get("dateFrom"), new Date(fromWallClock(today, SP)).toISOString());
      await page.getByTestId("report-table").getByText("Cliente Madrugada").waitFor({ timeout: 10_000 });
      const closed = (await admin.get(`/tickets/${ticket.id}`)).body;
      const shown = wallClock(Date.parse(closed.updatedAt ?? closed.closedAt), SP);
      const expected = `${shown.slice(8, 10)}/${shown.slice(5, 7)}/${shown.slice(0, 4)}`;
      assert.ok((await page.getByTestId("report-table").innerText()).includes(expected));
    });
  },
});
