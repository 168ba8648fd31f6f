/**
 * Issue #41's frictions as a new admin met them through the screens: a new queue's "Chatbot"
 * tick opens the bot-menu editor at once; saving an option never shows "saved" beside "click
 * save"; Portuguese validation texts; the user form's order and minimum length; campaigns'
 * expected end and one case style; the Help screen's first steps in three languages; and at
 * phone width the table's row actions, the dashboard's date fields and the campaign's fifth
 * message tab on screen.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { hasChromium, screenshot } from "./helpers/browser.ts";
import { demoConnection } from "./helpers/channels.ts";
import { seedContactList } from "./helpers/campaign_lists.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

/** Whether `el` lies wholly inside the viewport's width. */
async function onScreen(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

Deno.test({
  name: "First hour frictions: chatbot tick opens the bot editor, option save hints, pt validation, user form, campaign estimate, first steps",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1366, height: 800 } });

      // A new queue: ticking Chatbot saves it and shows the bot-menu editor in the same dialog.
      await page.goto(`${server.url}/queues`);
      await page.getByRole("button", { name: "Adicionar fila" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Nome", { exact: true }).fill("F");
      await dialog.getByLabel("Nome", { exact: true }).blur();
      await dialog.getByText("Muito curto!").waitFor({ timeout: 10_000 });
      assert.equal(await dialog.getByText("Too Short!").count(), 0);
      await dialog.getByLabel("Nome", { exact: true }).fill("Financeiro");
      await dialog.getByLabel("Prioridade").fill("3");
      // One click (check() would click again while the tick's save is under way on a slow machine).
      await dialog.getByLabel("Chatbot (menu de opções)").click();
      await dialog.getByTestId("bot-tree").waitFor({ timeout: 20_000 });
      await page.getByText("Fila salva com sucesso!").waitFor();
      await dialog.getByRole("button", { name: "Adicionar opção" }).click();
      await dialog.getByLabel("Título").fill("Boletos");
      await dialog.getByTestId("bot-unsaved").waitFor();
      assert.equal(await page.getByText("Clique em salvar para registrar as alterações").count(), 1, "said once, beside the button");
      await dialog.getByRole("button", { name: "Salvar opção" }).click();
      await page.getByText("Opção salva com sucesso!").waitFor({ timeout: 10_000 });
      assert.equal(await page.getByText("Clique em salvar para registrar as alterações").count(), 0, "no 'click save' beside 'saved'");
      const queues = (await admin.get("/queue")).body as { name: string; isChatbot: boolean }[];
      assert.ok(queues.some((q) => q.name === "Financeiro" && q.isChatbot));
      await page.keyboard.press("Escape");

      // The user form: e-mail before the password, which states its minimum.
      await page.goto(`${server.url}/users`);
      await page.getByRole("button", { name: "Adicionar usuário" }).click();
      const order = await dialog.locator("input").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).name));
      assert.ok(order.indexOf("email") >= 0 && order.indexOf("email") < order.indexOf("password"), order.join(","));
      await dialog.getByText("Mínimo de 5 caracteres.").waitFor();
      await page.keyboard.press("Escape");

      // A scheduled campaign shows when it should end; labels in one case style.
      const conn = await demoConnection(admin);
      await seedContactList(server.deps.kv, server.demo!.companyId, 41, 12);
      const later = new Date(Date.now() + 3600_000).toISOString();
      const created = await admin.post("/campaigns", { name: "Previsão", contactListId: 41, whatsappId: String(conn.id), scheduledAt: later, message1: "Oi" });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      await page.goto(`${server.url}/campaigns`);
      const row = page.locator("tr", { hasText: "Previsão" });
      await row.getByTestId("campaign-estimate").waitFor({ timeout: 20_000 });
      assert.match(await row.innerText(), /Programada/);
      const estimate = (await admin.get("/campaigns?searchParam=Previs")).body.records[0].estimatedEndAt;
      // 12 contacts at the defaults (240 s random, a 600 s pause every 4): well after the start.
      assert.ok(Date.parse(estimate) > Date.parse(later) + 30 * 60_000, estimate);

      // Ajuda: the first steps, in each language.
      for (const [lang, title, step] of [["pt", "Primeiros passos", "Teste com o simulador"], ["en", "First steps", "Try it with the simulator"], ["es", "Primeros pasos", "Pruebe con el simulador"]]) {
        await page.context().addCookies([{ name: "lang", value: lang, url: server.url }]);
        await page.goto(`${server.url}/helps`);
        const steps = page.getByTestId("first-steps");
        await steps.getByText(title).waitFor({ timeout: 20_000 });
        await steps.getByText(step).waitFor();
        assert.equal(await steps.locator("li").count(), 4);
        assert.deepEqual(await steps.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href"))), ["/connections", "/queues", "/users", "/simulator"]);
      }
      await page.context().addCookies([{ name: "lang", value: "pt", url: server.url }]);
      await screenshot(page, "helps_first_steps");
    });
  },
});

Deno.test({
  name: "Phone width: table row actions, the dashboard's date fields and the campaign dialog's Msg. 5 tab stay on screen",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 390, height: 844 } });

      await page.goto(`${server.url}/users`);
      const edit = page.locator(".data-table tbody tr").first().getByRole("button", { name: "Editar" });
      await edit.waitFor({ timeout: 20_000 });
      assert.ok(await onScreen(page, edit), "the row's edit button is on screen without scrolling the table");
      await edit.click();
      await page.getByRole("dialog").waitFor();
      await page.keyboard.press("Escape");

      await page.goto(`${server.url}/`);
      for (const id of ["dash-from", "dash-to"]) {
        const field = page.getByTestId(id);
        await field.waitFor({ timeout: 20_000 });
        assert.ok(await onScreen(page, field), `${id} is not cut`);
        const fits = await field.evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
        assert.ok(fits, `${id}'s text fits its box`);
      }
      await screenshot(page, "dashboard_phone_dates");

      await page.goto(`${server.url}/campaigns`);
      await page.getByRole("button", { name: "Nova campanha" }).click();
      const tab = page.getByRole("dialog").getByRole("tab", { name: "Msg. 5" });
      await tab.waitFor({ timeout: 10_000 });
      assert.ok(await onScreen(page, tab), "Msg. 5 is not clipped");
      await tab.click();
      await screenshot(page, "campaign_dialog_phone");
    });
  },
});
