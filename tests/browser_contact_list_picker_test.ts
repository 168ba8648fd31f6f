/**
 * "Add from existing contacts" on /contact-lists/{id}/contacts (issue #19): the picker searches
 * the contacts API, pages by scrolling inside the dialog, keeps the choice across searches, and
 * adds the chosen contacts with the duplicates in the list skipped and counted; the endpoint's
 * validation (empty, over MAX.list ids) and tenant check (another company's contact is not
 * found) over HTTP. 390 px dark screenshot of the dialog.
 */
import assert from "node:assert/strict";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { createTenant } from "./helpers/tenants.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

const pad = (i: number) => String(i).padStart(2, "0");

Deno.test({
  name: "ContactsPicker: search, scroll to page 2, choice kept across searches, duplicates skipped and counted; endpoint gates",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      // 25 contacts: more than one page of GET /contacts (20).
      const ids = new Map<string, number>();
      for (let i = 1; i <= 25; i++) {
        const c = await admin.post("/contacts", { name: `Picker Pessoa ${pad(i)}`, number: `55119777700${pad(i)}` });
        assert.equal(c.status, 200, JSON.stringify(c.body));
        ids.set(`Picker Pessoa ${pad(i)}`, c.body.id);
      }
      const list = (await admin.post("/contact-lists", { name: "Escolhidos" })).body;
      // Pessoa 02 is already in the list: it will be skipped and counted.
      const already = await admin.post("/contact-list-items", { contactListId: list.id, name: "Já Aqui", number: "5511977770002" });
      assert.equal(already.status, 200, JSON.stringify(already.body));

      // The endpoint: validation and the tenant check.
      const path = `/contact-lists/${list.id}/add-contacts`;
      assert.equal((await admin.post(path, { contactIds: [] })).status, 400);
      assert.equal((await admin.post(path, { contactIds: Array.from({ length: 1001 }, (_, i) => i + 1) })).status, 400);
      assert.equal((await admin.post(`/contact-lists/999999/add-contacts`, { contactIds: [1] })).status, 404);
      const other = await createTenant(server, "Outra Loja");
      const foreign = await other.admin.post("/contacts", { name: "Alheio", number: "5511966660001" });
      assert.equal(foreign.status, 200, JSON.stringify(foreign.body));
      // Contact ids count per company: the id names the caller's own contact, if any, never theirs.
      const scratch = (await admin.post("/contact-lists", { name: "Rascunho" })).body;
      const crossed = await admin.post(`/contact-lists/${scratch.id}/add-contacts`, { contactIds: [foreign.body.id] });
      assert.equal(crossed.status, 200, JSON.stringify(crossed.body));
      const scratchRows = (await admin.get(`/contact-list-items?contactListId=${scratch.id}`)).body.records as Array<{ number: string }>;
      assert.ok(scratchRows.every((r) => r.number !== "5511966660001"), "another company's contact never enters the list");
      assert.equal((await other.admin.post(path, { contactIds: [ids.get("Picker Pessoa 01")] })).status, 404, "nor its list");

      const page = await signedInPage(chrome, server, "supervisor@demo.local");
      await page.goto(`${server.url}/contact-lists/${list.id}/contacts`);
      const items = page.getByTestId("contact-list-items-table");
      await items.getByText("Já Aqui").waitFor({ timeout: 20_000 });
      await page.getByRole("button", { name: "Adicionar dos contatos" }).click();
      const picker = page.getByTestId("contacts-picker");
      const table = page.getByTestId("contacts-picker-table");
      // The search applies 500 ms after typing and replaces the rows (the unfiltered page 1
      // already shows Pessoa 01): wait for its answer, or a page 2 loaded by the scroll below
      // may be dropped or replaced by it.
      const searched = page.waitForResponse((r) => {
        const u = new URL(r.url());
        return u.pathname === "/contacts" && u.searchParams.get("searchParam") === "Picker Pessoa" && u.searchParams.get("pageNumber") === "1";
      }, { timeout: 10_000 });
      await picker.getByRole("searchbox").fill("Picker Pessoa");
      await searched;
      await table.getByText("Picker Pessoa 01").waitFor({ timeout: 10_000 });
      const pick = (name: string) => table.locator("tr", { hasText: name }).getByRole("checkbox", { name: "Selecionar linha" }).check();
      await pick("Picker Pessoa 01");
      await pick("Picker Pessoa 02");
      // Page 2 comes by scrolling inside the dialog.
      assert.equal(await table.getByText("Picker Pessoa 25").count(), 0, "page 2 is not loaded before the scroll");
      await table.locator(".data-table-frame").evaluate((el) => el.scrollTop = el.scrollHeight);
      await table.getByText("Picker Pessoa 25").waitFor({ timeout: 10_000 });
      await pick("Picker Pessoa 25");
      // A new search keeps what was chosen.
      await picker.getByRole("searchbox").fill("Pessoa 13");
      await table.getByText("Picker Pessoa 01").waitFor({ state: "detached", timeout: 10_000 });
      await pick("Picker Pessoa 13");
      await page.getByTestId("contacts-picker-count").getByText("4 selecionado(s)").waitFor();
      await page.getByTestId("contacts-picker-add").click();
      await page.getByText("Contatos adicionados: 3 (já na lista: 1)").waitFor({ timeout: 10_000 });
      await picker.waitFor({ state: "detached", timeout: 10_000 });
      for (const name of ["Picker Pessoa 01", "Picker Pessoa 13", "Picker Pessoa 25"]) await items.getByText(name).waitFor({ timeout: 10_000 });
      assert.equal(await items.getByText("Picker Pessoa 02").count(), 0, "the number already there is not added again");
      const stored = (await admin.get(`/contact-list-items?contactListId=${list.id}`)).body;
      assert.deepEqual(stored.records.map((r: { number: string }) => r.number).sort(), ["5511977770001", "5511977770002", "5511977770013", "5511977770025"]);
      await screenshot(page, "contact_list_picker_added");

      // 390 px, dark: the dialog fits.
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await items.getByText("Picker Pessoa 01").waitFor({ timeout: 20_000 });
      await page.getByRole("button", { name: "Adicionar dos contatos" }).click();
      await table.getByText("Picker Pessoa 01").first().waitFor({ timeout: 10_000 });
      await assertFitsWidth(page, "the contacts picker");
      await screenshot(page, "contact_list_picker_phone_dark");
    });
  },
});
