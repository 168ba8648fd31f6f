/**
 * Browser tests of /contact-lists and /contact-lists/{id}/contacts (issue #19) on the admin
 * kit: first data in the server's HTML, create with the schema's texts, import a .csv from the
 * page, the contacts page with the WhatsApp icon filled in live by the background check, add
 * and delete a contact, 390 px in light and dark.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "ContactListsPage and ContactListItemsPage: server-rendered, create, import, live check icons, add/delete, phone width",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const seeded = await admin.post("/contact-lists", { name: "Primeira lista" });
      assert.equal(seeded.status, 200, JSON.stringify(seeded.body));
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "supervisor@demo.local");

        const html = await page.evaluate(async () => (await fetch("/contact-lists", { headers: { accept: "text/html" } })).text());
        assert.match(html, /Primeira lista/);
        await page.goto(`${server.url}/contact-lists`);
        const table = page.getByTestId("contact-lists-table");
        await table.getByText("Primeira lista").waitFor({ timeout: 20_000 });

        // Create: the schema's texts in the browser, then the saved row.
        await page.getByRole("button", { name: "Nova lista" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Nome").fill("A");
        await dialog.getByTestId("contact-list-save").click();
        await dialog.getByText("Muito curto!").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Nome").fill("Clientes VIP");
        await dialog.getByTestId("contact-list-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText("Clientes VIP").waitFor();
        const vip = (await admin.get("/contact-lists?searchParam=VIP")).body.records[0];

        // Import a .csv from the row's button.
        const chooser = page.waitForEvent("filechooser");
        await table.locator("tr", { hasText: "Clientes VIP" }).getByRole("button", { name: "Importar planilha" }).click();
        await (await chooser).setFiles({
          name: "lista.csv",
          mimeType: "text/csv",
          buffer: Buffer.from("Nome;Telefone\nAna Souza;5511988880001\nSem Zap;23456789\n"),
        });
        await page.getByText(/Importação concluída! Novos: 2/).waitFor({ timeout: 10_000 });
        await screenshot(page, "contact_lists");

        // The contacts page: rows from the server, icons updated live by the check.
        await table.getByRole("link", { name: "Clientes VIP" }).click();
        await page.waitForURL(`**/contact-lists/${vip.id}/contacts`);
        const items = page.getByTestId("contact-list-items-table");
        await items.getByText("Ana Souza").waitFor({ timeout: 20_000 });
        await items.locator("tr", { hasText: "Ana Souza" }).getByRole("img", { name: "Número com WhatsApp" }).waitFor({ timeout: 10_000 });
        await items.locator("tr", { hasText: "Sem Zap" }).getByRole("img", { name: "Número sem WhatsApp" }).waitFor({ timeout: 10_000 });

        // Add one through the dialog; another user's addition arrives live; delete one.
        await page.getByRole("button", { name: "Adicionar contato" }).click();
        await dialog.getByLabel("Nome").fill("Beto Lima");
        await dialog.getByLabel("Número").fill("5511988880003");
        await dialog.getByTestId("contact-list-item-save").click();
        await items.getByText("Beto Lima").waitFor({ timeout: 10_000 });
        await admin.post("/contact-list-items", { contactListId: vip.id, name: "Cida Reis", number: "5511988880004" });
        await items.getByText("Cida Reis").waitFor({ timeout: 10_000 });
        await items.locator("tr", { hasText: "Sem Zap" }).getByRole("button", { name: "Excluir" }).click();
        await page.getByTestId("confirm").click();
        await items.getByText("Sem Zap").waitFor({ state: "detached", timeout: 10_000 });
        assert.equal((await admin.get(`/contact-list-items?contactListId=${vip.id}`)).body.count, 3);
        await screenshot(page, "contact_list_items");

        // Phone width, light then dark.
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await items.getByText("Beto Lima").waitFor({ timeout: 20_000 });
        await assertFitsWidth(page);
        await screenshot(page, "contact_list_items_phone");
        await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
        await page.goto(`${server.url}/contact-lists`);
        await table.getByText("Clientes VIP").waitFor({ timeout: 20_000 });
        assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
        await assertFitsWidth(page);
        await screenshot(page, "contact_lists_phone_dark");

        // A plain user is sent away by the gate.
        const agent = await server.login("agent@demo.local");
        assert.equal((await agent.get("/contact-lists")).status, 403);
      } finally {
        await chrome.close();
      }
    });
  },
});
