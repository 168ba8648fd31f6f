/**
 * /api-docs in a real Chromium (issue #22): the page is public and server-rendered from
 * GET /openapi.json (operations are in the first HTML, before any script), the search island
 * filters them, an operation opens to its schemas, and it fits a phone in the dark theme.
 */
import assert from "node:assert/strict";
import { withServerAndBrowser } from "./helpers/browser_session.ts";
import { assertFitsWidth, hasChromium, screenshot } from "./helpers/browser.ts";
import { OPERATIONS } from "../server/openapi/mod.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "/api-docs lists every operation without a login, searches them and opens one to its schema",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      // The first HTML already holds every operation (no script needed to read the document).
      const html = await (await fetch(`${server.url}/api-docs`, { headers: { accept: "text/html" } })).text();
      const document = await (await fetch(`${server.url}/openapi.json`)).json() as { webhooks: Record<string, unknown> };
      const total = OPERATIONS.length + Object.keys(document.webhooks).length;
      assert.equal(html.match(/data-op=""/g)?.length, total, "operations plus the outbound webhooks");
      assert.match(html, /Documentação da API/);

      const page = await (await chrome.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(`${server.url}/api-docs`);
      const docs = page.getByTestId("api-docs");
      await docs.waitFor({ timeout: 20_000 });
      const search = page.getByTestId("api-docs-search");
      await search.getByText(`${total} de ${total} operações`).waitFor({ timeout: 20_000 });

      await search.getByRole("searchbox").fill("messages send");
      const send = page.locator("details[data-op]:visible");
      // The filtered count (not the full one shown before the filter applied).
      await search.getByText(new RegExp(`^(?!${total} )\\d+ de ${total} operações$`)).waitFor();
      const visible = await send.count();
      assert.ok(visible >= 1 && visible < 10, `${visible} operations match "messages send"`);
      const external = page.locator("details#postApiMessagesSend");
      await external.locator("summary").click();
      await external.getByText("ExternalSendInput", { exact: true }).first().waitFor();
      await external.getByText("Idempotency-Key", { exact: false }).first().waitFor();
      await screenshot(page, "api_docs_desktop");

      await search.getByRole("searchbox").fill("no-such-endpoint-xyz");
      await search.getByText("Nenhuma operação encontrada.").waitFor();
      await search.getByRole("searchbox").fill("");
      await search.getByText(`${total} de ${total} operações`).waitFor();
      await search.getByRole("button", { name: "Expandir tudo" }).click();
      assert.equal(await page.locator("details[data-op][open]").count(), total);
      await search.getByRole("button", { name: "Recolher tudo" }).click();
      assert.equal(await page.locator("details[data-op][open]").count(), 0);
      assert.deepEqual(errors, []);

      // Phone width, dark theme, English.
      const phone = await (await chrome.newContext({ viewport: { width: 390, height: 844 } })).newPage();
      await phone.context().addCookies([
        { name: "theme", value: "dark", url: server.url },
        { name: "lang", value: "en", url: server.url },
      ]);
      await phone.goto(`${server.url}/api-docs`);
      await phone.getByText("API documentation").first().waitFor({ timeout: 20_000 });
      await phone.getByTestId("api-docs-search").getByRole("searchbox").fill("tickets");
      const first = phone.locator("details[data-op]:visible").first();
      await first.locator("summary").click();
      await assertFitsWidth(phone, "/api-docs at phone width");
      await screenshot(phone, "api_docs_phone_dark");
    });
  },
});
