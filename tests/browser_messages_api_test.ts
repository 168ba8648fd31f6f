/**
 * Browser tests of /messages-api (spec 001 §2.17, §5, §8): the documentation in the server's
 * HTML, the text form's required fields, a text sent through the demo's simulator connection
 * arriving in an agent's inbox, the media form with two files, the plan-flag gate, phone width
 * in the dark theme.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { whatsapps } from "../actors/whatsapps/collection.ts";
import { freshNumber } from "./helpers/messages.ts";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";
import { t } from "../islands/lib/i18n.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

function pendingRow(page: Page, name: string) {
  return page.locator('[data-testid="list-pending"] .ticket-row', { hasText: name });
}

Deno.test({
  name: "MessagesApiPage documents the API, validates the forms and sends a text the agent's inbox shows, and media",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const conns = await whatsapps.in(server.deps.system, server.demo!.companyId).list();
      const token = conns.find((w) => w.name === "WhatsApp Demo")!.token;
      const chrome = await launchBrowser();
      try {
        const agent = await (await chrome.newContext()).newPage();
        await loginToShell(agent, server.url, "agent@demo.local");
        await agent.getByTestId("subtab-pending").click();

        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");
        // The documentation (and the queue choice) are in the server's HTML.
        const html = await page.evaluate(async () => (await fetch("/messages-api", { headers: { accept: "text/html" } })).text());
        assert.match(html, /\/api\/messages\/send/);
        assert.match(html, /ERR_PLAN_FEATURE/);
        assert.match(html, /Suporte/);
        await page.goto(`${server.url}/messages-api`);
        const docs = page.getByTestId("api-docs");
        await docs.getByTestId("api-endpoint").getByText(`POST ${server.url}/api/messages/send`).waitFor({ timeout: 20_000 });
        assert.match(await docs.getByTestId("api-curl-text").innerText(), new RegExp(`curl -X POST '${server.url}/api/messages/send'`));

        // Every field is required; queueId when openTicket is 1. Nothing is sent before.
        const calls: string[] = [];
        page.on("request", (r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/messages/send" && calls.push(r.url()));
        const form = page.getByTestId("api-text-form");
        await form.getByRole("button", { name: "Enviar" }).click();
        await form.getByRole("alert").first().waitFor({ timeout: 10_000 });
        assert.equal(await form.getByRole("alert").count(), 4, "token, number, openTicket and body");
        await form.getByLabel("Token").fill(token);
        const number = freshNumber();
        await form.getByLabel("Número").fill(number);
        await form.getByLabel("Mensagem").fill("Olá pela página da API");
        await form.getByLabel("Abrir ticket").selectOption({ label: "Sim" });
        await form.getByRole("button", { name: "Enviar" }).click();
        await form.getByRole("alert").waitFor({ timeout: 10_000 });
        assert.equal(await form.getByRole("alert").count(), 1, "queueId is required when openTicket is 1");
        assert.deepEqual(calls, [], "invalid forms never reach the API");

        await form.getByLabel("Fila").selectOption({ label: "Suporte" });
        await form.getByRole("button", { name: "Enviar" }).click();
        await page.getByText("Mensagem enviada com sucesso").first().waitFor({ timeout: 10_000 });
        assert.equal(calls.length, 1);

        // The agent of Suporte sees the ticket arrive live, with the message as its last one.
        // (The row shortens the last message: "Olá pela página da A...".)
        await pendingRow(agent, number).getByText(/^Olá pela página/).waitFor({ timeout: 20_000 });

        // A token of no connection is said at the token field (the session stays).
        await form.getByLabel("Token").fill("wrong-token");
        await form.getByLabel("Mensagem").fill("de novo");
        await form.getByRole("button", { name: "Enviar" }).click();
        await form.getByRole("alert").getByText("Nenhuma conexão usa este token").waitFor({ timeout: 10_000 });
        assert.equal(new URL(page.url()).pathname, "/messages-api");

        // Media: two files, each with its caption (required).
        const media = page.getByTestId("api-media-form");
        await media.getByLabel("Token").fill(token);
        await media.getByLabel("Número").fill(number);
        await media.getByLabel("Arquivos").setInputFiles([
          { name: "foto.png", mimeType: "image/png", buffer: Buffer.from([137, 80, 78, 71]) },
          { name: "contrato.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4") },
        ]);
        await media.getByRole("button", { name: "Enviar" }).click();
        await media.getByRole("alert").first().waitFor({ timeout: 10_000 });
        assert.equal(await media.getByRole("alert").count(), 2, "each file needs its caption");
        await media.getByLabel("Legenda de foto.png").fill("a foto");
        await media.getByLabel("Legenda de contrato.pdf").fill("o contrato");
        await page.evaluate(() => document.querySelector(".api-layout")?.scrollTo(0, 0));
        await screenshot(page, "messages_api");
        await media.getByRole("button", { name: "Enviar" }).click();
        await pendingRow(agent, number).getByText("o contrato").waitFor({ timeout: 20_000 });
        const admin = await server.login("supervisor@demo.local");
        const tickets = (await admin.get(`/tickets?status=pending&searchParam=${number}`)).body.tickets;
        const messages = (await admin.get(`/messages/${tickets[0].id}`)).body.messages;
        assert.deepEqual(messages.map((m: { body: string }) => m.body), ["Olá pela página da API", "a foto", "o contrato"]);

        // Phone width, dark theme: the page still fits.
        await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
        await page.setViewportSize({ width: 390, height: 800 });
        await page.reload();
        await page.getByTestId("api-text-form").waitFor({ timeout: 20_000 });
        await assertFitsWidth(page, "/messages-api");
        await screenshot(page, "messages_api_phone_dark");
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "MessagesApiPage is gated by the plan flag useExternalApi: the upgrade message, then / after 1 s",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const owner = await server.login("super@balcao.local");
      assert.equal((await owner.put(`/plans/${server.demo!.planId}`, { useExternalApi: false })).status, 200);
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext()).newPage();
        await loginToShell(page, server.url, "admin@demo.local");
        await page.goto(`${server.url}/messages-api`);
        await page.getByTestId("gate-notice").getByText(t("gate.upgrade")).waitFor({ timeout: 20_000 });
        assert.equal(await page.getByTestId("api-text-form").count(), 0);
        await page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
      } finally {
        await chrome.close();
      }
    });
  },
});
