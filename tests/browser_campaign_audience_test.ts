/**
 * Issue #41, bugs 2 and 3 through the screens: a contact-list item typed "(11) 96666-0001"
 * is stored with the company's country code (like an imported one), a number no WhatsApp
 * account can have is refused, the campaign reaches 5511966660001, and its report keeps
 * "3 de 3" after a contact is added to the list once it finished.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { hasChromium, screenshot } from "./helpers/browser.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "A typed list number gets the country code, an impossible one is refused; a finished campaign's report does not change with its list",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const conn = await demoConnection(admin);
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1366, height: 800 } });

      await page.goto(`${server.url}/contact-lists`);
      await page.getByRole("button", { name: "Nova lista" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("Clientes 41");
      await dialog.getByTestId("contact-list-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      const table = page.getByTestId("contact-lists-table");
      const list = (await admin.get("/contact-lists?searchParam=41")).body.records[0];

      // The CSV: one number without the country code, one with it.
      const chooser = page.waitForEvent("filechooser");
      await table.locator("tr", { hasText: "Clientes 41" }).getByRole("button", { name: "Importar planilha" }).click();
      await (await chooser).setFiles({ name: "l.csv", mimeType: "text/csv", buffer: Buffer.from("Nome;Telefone\nBia;11966660002\nCaio;5511966660003\n") });
      await page.getByText(/Importação concluída! Novos: 2/).waitFor({ timeout: 10_000 });

      // By hand, as the admin typed it; then an impossible number.
      await page.goto(`${server.url}/contact-lists/${list.id}/contacts`);
      await page.getByRole("button", { name: "Adicionar contato" }).click();
      await dialog.getByLabel("Nome").fill("Ana");
      await dialog.getByLabel("Número").fill("(11) 96666-0001");
      await dialog.getByTestId("contact-list-item-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      await page.getByRole("button", { name: "Adicionar contato" }).click();
      await dialog.getByLabel("Nome").fill("Zé Inválido");
      await dialog.getByLabel("Número").fill("(00) 1234-5678");
      await dialog.getByTestId("contact-list-item-save").click();
      await dialog.getByText("Número inválido para o WhatsApp").waitFor({ timeout: 10_000 });
      await page.keyboard.press("Escape");
      const numbers = ((await admin.get(`/contact-list-items?contactListId=${list.id}`)).body.records as { number: string }[]).map((r) => r.number).sort();
      assert.deepEqual(numbers, ["5511966660001", "5511966660002", "5511966660003"]);

      // The campaign goes to those numbers and finishes: 3 de 3.
      const created = await admin.post("/campaigns", {
        name: "Campanha 41",
        contactListId: list.id,
        whatsappId: String(conn.id),
        scheduledAt: new Date(Date.now() + 200).toISOString(),
        message1: "Oi {{primeiroNome}}",
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await eventually(async () => (await admin.get(`/campaigns/${created.body.id}`)).body.status === "FINALIZADA" || undefined, 30_000, "the campaign to finish");
      const outbox = (await admin.get(`/simulator/${conn.id}/outbox`)).body.messages as { to: string; body: string }[];
      assert.deepEqual(outbox.filter((m) => m.body.startsWith("Oi ")).map((m) => m.to).sort(), numbers);
      assert.ok(outbox.some((m) => m.to === "5511966660001" && m.body === "Oi Ana"));

      await page.goto(`${server.url}/campaign/${created.body.id}/report`);
      const progress = page.getByTestId("campaign-progress-text");
      await progress.getByText("3 de 3 mensagens entregues").waitFor({ timeout: 20_000 });

      // A contact added to the list afterwards changes nothing in the finished campaign's report.
      assert.equal((await admin.post("/contact-list-items", { contactListId: list.id, name: "Duda", number: "(11) 96666-0004" })).status, 200);
      await page.reload();
      await progress.getByText("3 de 3 mensagens entregues").waitFor({ timeout: 20_000 });
      const bar = page.getByTestId("campaign-progress");
      assert.deepEqual([await bar.getAttribute("value"), await bar.getAttribute("max")], ["3", "3"]);
      await screenshot(page, "campaign_audience_report");
    }, { campaignTimeScale: 0.001 });
  },
});
