/**
 * Browser tests of the WhatsApp Cloud API (issue #22). "A company can connect an official
 * number through the Cloud API fake end to end": on /connections an admin picks the provider,
 * the dialog shows its fields (missing ones flagged by the server), the saved connection
 * reaches CONNECTED against the fake Graph API, and editing it shows the callback URL and
 * verify token but never the access token or app secret; phone width. The composer: a
 * ticket whose 24-hour window closed says so and sends an approved template with its
 * parameters; the customer's answer opens the window live.
 */
import assert from "node:assert/strict";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";
import { accept, createCloud, deliver, messagesOf, ticketOf, withGraph } from "./helpers/cloudapi.ts";
import { eventually } from "./helpers/channels.ts";
import { notification, textMessage } from "./helpers/fake_graph.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "ConnectionsPage connects a WhatsApp Cloud API number through the dialog; secrets are write-only",
  ...opts,
  async fn() {
    await withGraph(async (server, graph) => {
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");
        await page.goto(`${server.url}/connections`);
        const table = page.getByTestId("connections-table");
        await table.locator("tr", { hasText: "WhatsApp Demo" }).waitFor({ timeout: 20_000 });

        await page.getByRole("button", { name: "Adicionar WhatsApp" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Nome").waitFor({ timeout: 10_000 });
        assert.equal(await dialog.getByTestId("cloudapi-fields").count(), 0);
        await dialog.getByLabel("Nome").fill("Número oficial");
        await dialog.getByLabel("Provedor").selectOption({ label: "WhatsApp Cloud API (oficial)" });
        const fields = dialog.getByTestId("cloudapi-fields");
        await fields.waitFor({ timeout: 5_000 });
        await dialog.getByLabel("ID do número de telefone").fill(graph.phoneNumberId);
        await dialog.getByTestId("connection-save").click();
        // The server names what a Cloud API connection still lacks.
        await fields.getByText("Obrigatório").first().waitFor({ timeout: 10_000 });
        assert.equal(await fields.getByText("Obrigatório").count(), 3);

        await dialog.getByLabel("ID da conta do WhatsApp Business (WABA)").fill(graph.wabaId);
        // A token Meta refuses: the reason shows on its field, nothing is saved.
        await dialog.getByLabel("Token de acesso").fill("EAAG-wrong");
        await dialog.getByLabel("Chave secreta do app").fill("app-secret-browser");
        await dialog.getByTestId("connection-save").click();
        await fields.getByText("Refused by the Graph API: Invalid OAuth access token", { exact: false }).waitFor({ timeout: 10_000 });
        await dialog.getByLabel("Token de acesso").fill(graph.accessToken);
        await dialog.getByLabel("Chave secreta do app").fill("app-secret-browser");
        assert.equal(await dialog.getByLabel("Token de acesso").getAttribute("type"), "password");
        await screenshot(page, "cloudapi_form");
        await dialog.getByTestId("connection-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });

        const row = table.locator("tr", { hasText: "Número oficial" });
        await row.getByText("Conectado").waitFor({ timeout: 10_000 });
        const id = Number(await row.getAttribute("data-row-id"));
        assert.ok(graph.calls.some((c) => c.path === `/v21.0/${graph.phoneNumberId}`));

        // Editing: the callback URL and the generated verify token; the secrets stay blank.
        await row.getByRole("button", { name: "Editar" }).click();
        await dialog.getByLabel("Nome").waitFor({ timeout: 10_000 });
        await dialog.getByTestId("cloudapi-callback").getByText(`${server.url}/webhooks/cloudapi/${id}`).waitFor({ timeout: 5_000 });
        assert.equal(await dialog.getByLabel("Token de acesso").inputValue(), "");
        assert.equal(await dialog.getByLabel("Chave secreta do app").inputValue(), "");
        const verify = await dialog.getByLabel("Token de verificação do webhook").inputValue();
        assert.match(verify, /^[0-9a-f]{32}$/);
        const html = await page.content();
        assert.ok(!html.includes(graph.accessToken) && !html.includes("app-secret-browser"));
        await screenshot(page, "cloudapi_edit");

        // Saving with the secrets left blank keeps them: still connected with the same token.
        await dialog.getByLabel("Nome").fill("Oficial Matriz");
        await dialog.getByTestId("connection-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await table.locator("tr", { hasText: "Oficial Matriz" }).getByText("Conectado").waitFor({ timeout: 10_000 });
        assert.equal(graph.calls.at(-1)!.authorization, `Bearer ${graph.accessToken}`);

        // Meta's verification succeeds with the token shown.
        const challenge = await fetch(`${server.url}/webhooks/cloudapi/${id}?hub.mode=subscribe&hub.verify_token=${verify}&hub.challenge=42`);
        assert.equal(await challenge.text(), "42");

        // Phone width: the dialog's fields and the callback URL fit.
        await page.setViewportSize({ width: 390, height: 844 });
        await table.locator("tr", { hasText: "Oficial Matriz" }).getByRole("button", { name: "Editar" }).click();
        await dialog.getByTestId("cloudapi-callback").waitFor({ timeout: 10_000 });
        await assertFitsWidth(page, "the Cloud API dialog");
        await screenshot(page, "cloudapi_edit_phone");
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "Composer: a closed 24-hour window says so and sends an approved template; the customer's answer opens it",
  ...opts,
  async fn() {
    await withGraph(async (server, graph) => {
      const admin = await server.login("admin@demo.local");
      const id = (await createCloud(admin, graph)).body.id;
      const ids = { phoneNumberId: graph.phoneNumberId, wabaId: graph.wabaId };
      const customer = "5531966665555";
      await deliver(
        server,
        id,
        notification(ids, { contacts: [{ wa_id: customer, name: "Bruna" }], messages: [textMessage(customer, "wamid.B1", "oi, ontem", Date.now() - 30 * 3600_000)] }),
      );
      const ticket = await ticketOf(admin, customer);
      await accept(server, admin, ticket.id);
      const uuid = (await admin.get(`/tickets/${ticket.id}`)).body.uuid;
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");
        await page.goto(`${server.url}/tickets/${uuid}`);
        const bar = page.getByTestId("cloud-window");
        await bar.getByText("Janela de 24 h fechada: só modelos aprovados podem ser enviados.").waitFor({ timeout: 20_000 });
        // Free text now fails, and the message says why.
        const input = page.getByPlaceholder("Digite uma mensagem");
        // The bar is server-rendered: on a loaded machine Enter may come before the composer
        // has hydrated and do nothing, so send until the message shows in the conversation.
        const sent = page.getByTestId("messages").getByText("ainda está aí?");
        for (let attempt = 0; (await sent.count()) === 0; attempt++) {
          assert.ok(attempt < 10, "the composer sent the message");
          await input.fill("ainda está aí?");
          await input.press("Enter");
          await sent.first().waitFor({ timeout: 3000 }).catch(() => {});
        }
        await page.getByTestId("messages").getByLabel("Mais de 24 h desde a última mensagem do cliente: envie um modelo aprovado.").waitFor({ timeout: 20_000 }).catch(async (e) => {
          const stored = (await admin.get(`/messages/${ticket.id}`)).body.messages.slice(-2);
          console.log("stored messages:", JSON.stringify(stored), "shown:", await page.getByTestId("messages").innerText());
          throw e;
        });
        await bar.getByRole("button", { name: "Enviar modelo" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("Modelo").selectOption({ label: "retomar_conversa (pt_BR)" });
        const send = dialog.getByTestId("template-send");
        assert.equal(await send.isDisabled(), true);
        await dialog.getByLabel("Parâmetro 1").fill("Bruna");
        await dialog.getByTestId("template-preview").getByText("Olá Bruna, seu pedido {{2}} está pronto.").waitFor();
        await dialog.getByLabel("Parâmetro 2").fill("77");
        await dialog.getByTestId("template-preview").getByText("Olá Bruna, seu pedido 77 está pronto.").waitFor();
        await screenshot(page, "cloudapi_template_dialog");
        await send.click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await page.getByTestId("messages").getByText("Olá Bruna, seu pedido 77 está pronto.").waitFor({ timeout: 10_000 });
        const call = await eventually(() => graph.sends().find((c) => c.body?.type === "template"), 10_000, "template send");
        assert.deepEqual(call.body.template.components[0].parameters.map((p: { text: string }) => p.text), ["Bruna", "77"]);
        await eventually(async () => (await messagesOf(admin, ticket.id)).find((m) => m.body.startsWith("Olá Bruna") && m.providerId), 10_000, "template wamid");
        await screenshot(page, "cloudapi_window_closed");

        // The customer answers: the bar says the window is open again.
        await deliver(server, id, notification(ids, { messages: [textMessage(customer, "wamid.B2", "pode mandar")] }));
        await bar.getByText("Janela de atendimento de 24 h aberta até", { exact: false }).waitFor({ timeout: 10_000 });
        assert.equal(await bar.getAttribute("data-open"), "true");
        await page.setViewportSize({ width: 390, height: 844 });
        await assertFitsWidth(page, "the chat with the Cloud API bar");
        await screenshot(page, "cloudapi_window_open_phone");

        // A simulator ticket shows no bar.
        const demo = (await admin.get("/tickets?showAll=true&limit=1000")).body.tickets.find((t: { whatsappId: number; id: number }) => t.whatsappId !== id);
        if (demo) {
          await page.goto(`${server.url}/tickets/${demo.uuid}`);
          await page.getByTestId("chat").waitFor({ timeout: 20_000 });
          await page.waitForTimeout(500);
          assert.equal(await page.getByTestId("cloud-window").count(), 0);
        }
      } finally {
        await chrome.close();
      }
    });
  },
});
