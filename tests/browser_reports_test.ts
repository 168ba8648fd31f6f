/**
 * Browser tests of /relatorios (spec 002 §2.14): the first page in the server's HTML, the
 * status chips' colours, numbered pages (default 10, sizes 5–100), a status filter, the
 * link by uuid, the export with its progress indicator (the file opened back with exceljs),
 * the plain user's own-tickets view without a users filter, phone width in both themes.
 */
import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { inboundTicket, makeContact } from "./helpers/fixtures.ts";
import type { TestServer } from "./helpers/server.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

/** 12 tickets: 8 pending, 2 open for the agent, 2 closed by the supervisor. */
async function seed(server: TestServer) {
  const companyId = server.demo!.companyId;
  const [support] = server.demo!.queueIds;
  const agent = await server.login("agent@demo.local");
  const admin = await server.login("admin@demo.local");
  const supervisorId = server.demo!.logins.find((l) => l.email === "supervisor@demo.local")!.id;
  // The supervisor resolves them: the report's Usuário names the closer (#41).
  const supervisor = await server.login("supervisor@demo.local");
  const ids: number[] = [];
  for (let n = 1; n <= 12; n++) {
    const contact = await makeContact(server, companyId, { name: `Cliente Relatório ${String(n).padStart(2, "0")}` });
    const t = await inboundTicket(server, companyId, { contact, queueId: support });
    ids.push(t.id);
    if (n <= 2) assert.equal((await agent.put(`/tickets/${t.id}`, { status: "open" })).status, 200);
    else if (n <= 4) {
      assert.equal((await admin.put(`/tickets/${t.id}`, { status: "open", userId: supervisorId })).status, 200);
      assert.equal((await supervisor.put(`/tickets/${t.id}`, { status: "closed", sendFarewellMessage: false })).status, 200);
    }
  }
  return ids;
}

Deno.test({
  name: "ReportsPage renders the first page on the server, pages, filters, links and exports with progress",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      await seed(server);
      const page = await signedInPage(chrome, server, "admin@demo.local");
      const html = await page.evaluate(async () => (await fetch("/relatorios", { headers: { accept: "text/html" } })).text());
      assert.match(html, /Cliente Relatório 12/, "the first page is in the server's HTML");
      await page.goto(`${server.url}/relatorios`);
      const table = page.getByTestId("report-table");
      await table.getByText("Cliente Relatório 12").waitFor({ timeout: 20_000 });
      const pager = page.getByTestId("report-pager");
      await pager.getByText("1–10 de 12").waitFor();
      assert.equal(await table.locator("tbody tr").count(), 10);

      // Status chips: ABERTO green, FECHADO red, PENDENTE grey (the theme's tokens).
      const colours = await page.evaluate(() => {
        const style = getComputedStyle(document.documentElement);
        const probe = (cls: string) => {
          const el = document.querySelector(`.status-chip.${cls}`);
          return el ? getComputedStyle(el).backgroundColor : null;
        };
        const token = (name: string) => {
          const el = document.createElement("span");
          el.style.background = style.getPropertyValue(name);
          document.body.append(el);
          const value = getComputedStyle(el).backgroundColor;
          el.remove();
          return value;
        };
        return { pending: probe("status-pending"), muted: token("--muted"), closed: probe("status-closed"), danger: token("--danger"), open: probe("status-open"), success: token("--success") };
      });
      assert.equal(colours.pending, colours.muted);

      // Next page, then 5 per page.
      await pager.getByRole("button", { name: "Próxima página" }).click();
      await pager.getByText("11–12 de 12").waitFor({ timeout: 10_000 });
      await table.getByText("ABERTO").first().waitFor();
      const openColour = await table.locator(".status-open").first().evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.equal(openColour, colours.success);
      const link = await table.locator("tbody tr").first().getByRole("link").getAttribute("href");
      assert.match(link ?? "", /^\/tickets\/[0-9a-f-]{36}$/);
      await pager.getByLabel("Por página").selectOption("5");
      await pager.getByText("1–5 de 12").waitFor({ timeout: 10_000 });
      assert.equal(await table.locator("tbody tr").count(), 5);

      // Filter: closed only.
      await page.getByTestId("report-status").click();
      await page.getByRole("menuitemcheckbox", { name: "Fechado" }).click();
      await page.keyboard.press("Escape");
      await page.getByTestId("report-apply").click();
      await pager.getByText("1–2 de 2").waitFor({ timeout: 10_000 });
      assert.equal(await table.locator(".status-chip").count(), 2);
      assert.equal(await table.locator(".status-closed").count(), 2);
      const closedColour = await table.locator(".status-closed").first().evaluate((el) => getComputedStyle(el).backgroundColor);
      assert.equal(closedColour, colours.danger);
      await table.getByText("Sérgio Supervisor").first().waitFor();
      await screenshot(page, "reports");

      // Export: a progress indicator while it runs, then the file of the same filters.
      await page.route("**/ticketreport/reports/export*", async (route) => {
        await new Promise((r) => setTimeout(r, 1200));
        await route.continue();
      });
      const downloading = page.waitForEvent("download", { timeout: 20_000 });
      await page.getByTestId("report-export").click();
      await page.getByTestId("report-progress").waitFor({ timeout: 5000 });
      const download = await downloading;
      assert.match(download.suggestedFilename(), /^relatorio-tickets-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const path = await download.path();
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile(path);
      const sheet = book.worksheets[0];
      assert.equal(sheet.rowCount, 3, "header and the two closed tickets");
      assert.equal(sheet.getRow(1).getCell(3).value, "Contato");
      assert.deepEqual([sheet.getRow(2).getCell(7).value, sheet.getRow(3).getCell(7).value], ["FECHADO", "FECHADO"]);
      await page.getByTestId("report-progress").waitFor({ state: "detached", timeout: 10_000 });

      // Phone width, light then dark.
      await page.setViewportSize({ width: 390, height: 820 });
      await page.reload();
      await table.getByText("Cliente Relatório 12").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "reports_phone");
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.reload();
      await table.getByText("Cliente Relatório 12").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "reports_phone_dark");
    });
  },
});

Deno.test({
  name: "ReportsPage shows a plain user its own tickets and no users filter",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      await seed(server);
      const page = await signedInPage(chrome, server, "agent@demo.local");
      await page.goto(`${server.url}/relatorios`);
      const table = page.getByTestId("report-table");
      await page.getByTestId("report-pager").getByText("1–2 de 2").waitFor({ timeout: 20_000 });
      assert.equal(await table.getByText("Alice Atendente").count(), 2);
      assert.equal(await page.getByTestId("report-users").count(), 0);
      await page.getByTestId("report-queues").waitFor();
    });
  },
});
