/**
 * Browser test of issue #22's "a company can connect an official number through the Cloud API
 * fake end to end": on /connections an admin picks the WhatsApp Cloud API provider, the
 * dialog shows its fields (missing ones flagged by the server), the saved connection reaches
 * CONNECTED against the fake Graph API, and editing it shows the callback URL and verify
 * token but never the access token or app secret; phone width.
 */
import assert from "node:assert/strict";
import { withServer } from "./helpers/server.ts";
import { assertFitsWidth, hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";
import { fakeGraph } from "./helpers/fake_graph.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "ConnectionsPage connects a WhatsApp Cloud API number through the dialog; secrets are write-only",
  ...opts,
  async fn() {
    const graph = fakeGraph();
    try {
      await withServer(async (server) => {
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
          await fields.getByText("Required").first().waitFor({ timeout: 10_000 });
          assert.equal(await fields.getByText("Required").count(), 3);

          await dialog.getByLabel("ID da conta do WhatsApp Business (WABA)").fill(graph.wabaId);
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
      }, { graphApiUrl: graph.baseUrl });
    } finally {
      await graph.server.shutdown();
    }
  },
});
