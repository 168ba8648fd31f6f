/**
 * The campaign report page with a 300-contact campaign (issue #19): the detail table pages on
 * the server (Pager: size 20, page 2), and stays on the page the user chose while the progress
 * bar, the cards and the pager's total fill live; the search by number and the status filter
 * ask the server. Desktop and 390 px dark screenshots.
 */
import assert from "node:assert/strict";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { seedContactList } from "./helpers/campaign_lists.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "CampaignReportPage: 300 contacts paged on the server, page kept while the progress fills live, search and status filter",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
      const numbers = await seedContactList(server.deps.kv, server.demo!.companyId, 4, 300);
      // 5 s × 0.005 = up to 25 ms a message, 250 ms after every 10: the run lasts several seconds.
      await admin.post("/campaign-settings", { settings: { messageInterval: 5, longerIntervalAfter: 10, greaterInterval: 50, variables: [] } });
      const created = await admin.post("/campaigns", {
        name: "Trezentos",
        contactListId: 4,
        whatsappId: String(conn.id),
        scheduledAt: new Date(Date.now() + 3000).toISOString(),
        message1: "Oi {primeiroNome}",
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = created.body.id;

      const page = await signedInPage(chrome, server, "admin@demo.local");
      await page.goto(`${server.url}/campaign/${id}/report`);
      const progress = page.getByTestId("campaign-progress-text");
      const table = page.getByTestId("campaign-shipping");
      const pager = page.getByTestId("campaign-shipping-pager");
      await progress.getByText(/de 300 mensagens entregues/).waitFor({ timeout: 20_000 });

      // Size 20, page 2, while the campaign is still running.
      await table.getByText(numbers[0]).waitFor({ timeout: 20_000 });
      await pager.getByLabel("Por página").selectOption("20");
      await pager.getByText(/^1–20 de \d+$/).waitFor({ timeout: 10_000 });
      const before = (await admin.get(`/campaigns/${id}/report`)).body.counts.delivered;
      assert.ok(before < 300, `still running when paging (${before} delivered)`);
      await pager.getByRole("button", { name: "Próxima página" }).click();
      await table.getByText(numbers[20], { exact: true }).waitFor({ timeout: 10_000 });
      assert.equal(await table.getByText(numbers[0], { exact: true }).count(), 0);

      // Live: the bar and the pager's total reach the end with the table still on page 2.
      await progress.getByText("300 de 300 mensagens entregues").waitFor({ timeout: 90_000 });
      await pager.getByText("21–40 de 300").waitFor({ timeout: 10_000 });
      await progress.getByText("Finalizada").waitFor({ timeout: 20_000 });
      assert.equal(await table.locator("tbody tr").count(), 20);
      await table.getByText(numbers[39], { exact: true }).waitFor();
      assert.equal(await page.getByTestId("campaign-card-delivered").innerText(), "Entregues\n300");
      await screenshot(page, "campaign_report_paged");

      // The search asks the server: one row, from page 1.
      await page.getByRole("searchbox").fill(numbers[250]);
      await pager.getByText("1–1 de 1").waitFor({ timeout: 10_000 });
      await table.getByText(numbers[250], { exact: true }).waitFor();
      await page.getByRole("searchbox").fill("");
      await pager.getByText("1–20 de 300").waitFor({ timeout: 10_000 });

      // The status filter: every row was delivered, none failed.
      const filter = page.getByTestId("campaign-shipping-filter");
      await filter.selectOption("failed");
      await table.getByText("Nenhum envio com essa pesquisa ou situação.").waitFor({ timeout: 10_000 });
      await filter.selectOption("delivered");
      await pager.getByText("1–20 de 300").waitFor({ timeout: 10_000 });

      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await pager.getByText("1–50 de 300").waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "campaign_report_paged_phone_dark");
    }, { campaignTimeScale: 0.005 });
  },
});
