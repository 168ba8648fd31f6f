/**
 * Browser test of /webhooks (issue #22): the admin adds a subscription through the dialog
 * (the schema's messages, the events checklist, a generated secret), deliveries reach a
 * local receiver, the delivery log shows them with their status codes and "Reenviar" sends
 * one again; the menu entry, the supervisor's gate, phone width and the dark theme.
 */
import assert from "node:assert/strict";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { eventually } from "./helpers/channels.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { validSignature, WebhookReceiver } from "./helpers/webhook_receiver.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const FAST = {
  webhookAllowPrivate: true,
  webhookRetry: { baseMs: 150, maxMs: 600, watchdogMs: 400, timeoutMs: 2000 },
};

Deno.test({
  name: "WebhooksPage adds a subscription, shows its delivery log with status codes and resends a delivery",
  ...opts,
  async fn() {
    const receiver = new WebhookReceiver().start();
    try {
      await withServerAndBrowser(async (server, chrome) => {
        const page = await signedInPage(chrome, server, "admin@demo.local");
        await page.getByRole("link", { name: "Webhooks" }).first().waitFor({ timeout: 20_000 });
        await page.goto(`${server.url}/webhooks`);
        const table = page.getByTestId("webhooks-table");
        await table.getByText("Nenhum webhook ainda").waitFor({ timeout: 20_000 });

        await page.getByRole("button", { name: "Adicionar webhook" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.getByLabel("URL de destino").fill("ftp://nada");
        await dialog.getByTestId("webhook-save").click();
        await dialog.getByText("Informe uma URL http:// ou https:// válida").waitFor({ timeout: 10_000 });
        await dialog.getByLabel("URL de destino").fill(receiver.url());
        await dialog.getByLabel("Ticket criado").check();
        await dialog.getByRole("button", { name: "Gerar segredo" }).click();
        const secret = await dialog.getByLabel("Segredo").inputValue();
        assert.match(secret, /^[0-9a-f]{64}$/);
        await screenshot(page, "webhooks_dialog");
        await dialog.getByTestId("webhook-save").click();
        await dialog.waitFor({ state: "detached", timeout: 10_000 });
        await table.getByText(receiver.url()).waitFor({ timeout: 10_000 });

        await receive(server, inboundText(freshNumber(), "olá do navegador"));
        const got = await eventually(() => receiver.received.find((r) => r.json.event === "message.created"));
        assert.ok(await validSignature(got, secret));

        const row = table.locator("tr", { hasText: receiver.url() });
        await row.getByRole("button", { name: "Entregas" }).click();
        const log = page.getByTestId("webhook-log");
        await log.getByText("Entregue").first().waitFor({ timeout: 10_000 });
        await log.getByText("Ticket criado").first().waitFor();
        await log.getByText("200").first().waitFor();
        await screenshot(page, "webhooks_log");
        const before = receiver.received.length;
        await log.getByRole("button", { name: "Reenviar" }).first().click();
        await page.getByText("Entrega reenviada.").waitFor({ timeout: 10_000 });
        await eventually(() => (receiver.received.length > before ? true : undefined), 10_000, "the resent delivery");
        await page.keyboard.press("Escape");
        // Closing the log refreshes the rows' pending counts and last delivery.
        await table.locator("tr", { hasText: receiver.url() }).getByText("200").waitFor({ timeout: 10_000 });
        await screenshot(page, "webhooks");

        // Phone width, light then dark: the page still fits (the table scrolls in its frame).
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await table.getByText(receiver.url()).waitFor({ timeout: 20_000 });
        await assertFitsWidth(page);
        await screenshot(page, "webhooks_phone");
        await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
        await page.reload();
        await table.getByText(receiver.url()).waitFor({ timeout: 20_000 });
        await screenshot(page, "webhooks_phone_dark");

        // A supervisor has no menu entry and is turned away from the page.
        const supervisor = await signedInPage(chrome, server, "supervisor@demo.local");
        assert.equal(await supervisor.getByRole("link", { name: "Webhooks" }).count(), 0);
        await supervisor.goto(`${server.url}/webhooks`);
        await supervisor.getByText("Sem permissão para acessar!").first().waitFor({ timeout: 20_000 });
      }, FAST);
    } finally {
      await receiver.stop();
    }
  },
});
