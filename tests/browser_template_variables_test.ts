/**
 * Issue #41, bug 1: a quick reply "Olá {{name}}!" reached the customer literally. Every text a
 * customer receives now takes one variable syntax (domain/message_template.ts), filled on the
 * way out, with the list of variables under the boxes where those texts are typed.
 */
import assert from "node:assert/strict";
import { withServerAndBrowser, signedInPage } from "./helpers/browser_session.ts";
import { hasChromium, screenshot } from "./helpers/browser.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "A quick reply 'Olá {{name}}!' picked with '/' reaches the customer with the name filled; the variables are listed under its box",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const sim = (await demoConnection(admin)).id;
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1366, height: 800 } });

      // The quick reply, typed through the screen, as the admin did.
      await page.goto(`${server.url}/quick-messages`);
      await page.getByRole("button", { name: "Adicionar resposta rápida" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Atalho").fill("saudar");
      await dialog.getByLabel("Mensagem", { exact: true }).fill("Olá {{name}}!");
      const vars = dialog.getByTestId("template-vars");
      await vars.getByText("{{nome}}").waitFor();
      assert.match(await vars.innerText(), /\{\{primeiroNome\}\}.*\{\{saudacao\}\}/s);
      await dialog.getByTestId("quick-message-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });

      // A customer writes; the admin accepts, types '/', picks the reply and sends it.
      const from = "5511966660042";
      assert.equal((await admin.post(`/simulator/${sim}/inbound`, { from, name: "Maria Cliente", body: "Oi" })).status, 200);
      await page.goto(`${server.url}/tickets`);
      await page.getByTestId("subtab-pending").click();
      const row = page.locator('[data-testid="list-pending"] .ticket-row', { hasText: "Maria Cliente" });
      await row.getByTestId("accept").click();
      await page.locator('[data-testid="chat"][data-ticket-status="open"]').waitFor({ timeout: 20_000 });
      const input = page.getByLabel("Digite uma mensagem");
      await input.fill("/saudar");
      await page.locator(".quick-replies button", { hasText: "/saudar" }).click();
      assert.equal(await input.inputValue(), "Olá {{name}}!");
      await input.press("Enter");
      await page.locator(".bubble-row.out", { hasText: "Olá Maria Cliente!" }).first().waitFor({ timeout: 20_000 });
      const sent = await eventually(async () => {
        const outbox = (await admin.get(`/simulator/${sim}/outbox`)).body.messages as { to: string; body: string }[];
        return outbox.find((m) => m.to === from && m.body.includes("Maria"));
      });
      assert.match(sent.body, /Olá Maria Cliente!$/);
      assert.doesNotMatch(sent.body, /\{\{/);
      await screenshot(page, "template_variables_quick_reply");
    });
  },
});

Deno.test({
  name: "Every box of a customer text lists the variables: connection, queue, bot option, user farewell, schedule, campaign, rating, API page",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1366, height: 800 } });
      const count = async () => await page.getByRole("dialog").getByTestId("template-vars").count();

      await page.goto(`${server.url}/connections`);
      await page.getByRole("button", { name: "Editar", exact: true }).first().click();
      await eventually(async () => (await count()) === 5 || undefined, 10_000, "five message boxes of the connection");
      await page.keyboard.press("Escape");

      await page.goto(`${server.url}/queues`);
      await page.getByRole("button", { name: "Adicionar fila" }).click();
      await eventually(async () => (await count()) === 2 || undefined, 10_000, "greeting and out-of-hours of the queue");
      await page.keyboard.press("Escape");
      // A bot option's message (the demo's Suporte queue has a menu).
      await page.getByRole("button", { name: "Editar", exact: true }).first().click();
      await page.getByRole("dialog").getByRole("tab", { name: "Fluxo do Bot" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Adicionar opção" }).click();
      const tree = page.getByRole("dialog").getByTestId("bot-tree");
      await eventually(async () => (await tree.getByTestId("template-vars").count()) >= 1 || undefined, 10_000, "the bot option's message");
      await page.keyboard.press("Escape");

      await page.goto(`${server.url}/users`);
      await page.getByRole("button", { name: /Adicionar usuário/ }).click();
      await eventually(async () => (await count()) === 1 || undefined, 10_000, "the user's farewell");
      await page.keyboard.press("Escape");

      await page.goto(`${server.url}/ratings`);
      await page.getByRole("button", { name: /Adicionar/ }).first().click();
      await eventually(async () => (await count()) === 1 || undefined, 10_000, "the rating's message");
      await page.keyboard.press("Escape");

      await page.goto(`${server.url}/campaigns`);
      await page.getByRole("button", { name: /Nova campanha|Adicionar/ }).first().click();
      await eventually(async () => (await count()) >= 1 || undefined, 10_000, "the campaign's message");
      await page.keyboard.press("Escape");

      await page.goto(`${server.url}/schedules`);
      await page.getByRole("button", { name: "Novo agendamento" }).click();
      await eventually(async () => (await count()) === 1 || undefined, 10_000, "the scheduled message");
      await page.keyboard.press("Escape");

      await page.goto(`${server.url}/quick-messages`);
      await page.getByRole("button", { name: "Adicionar resposta rápida" }).click();
      await eventually(async () => (await count()) === 1 || undefined, 10_000, "the quick reply");
      await page.keyboard.press("Escape");

      await page.goto(`${server.url}/messages-api`);
      await page.getByTestId("template-vars").first().waitFor({ timeout: 10_000 });
    });
  },
});
