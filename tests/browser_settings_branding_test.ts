/**
 * Browser tests of the branding tabs of /settings (spec 001 §2.10, §2.11, §5): the super
 * picks a main colour and the top bar takes it at once, after a reload and for another user
 * in another browser; uploads with the spec's warnings; the uploaded logo on /login from the
 * first paint; the tabs hidden from a company admin; phone width.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { assertFitsWidth, hasChromium, loginToShell, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";
import { p12Bytes, PDF_BYTES, pngBanner } from "./helpers/branding_files.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

const RED = "rgb(220, 38, 38)";

function topBarColor(page: Page): Promise<string> {
  return page.locator(".topbar").evaluate((el) => getComputedStyle(el).backgroundColor);
}

/** A file for setInputFiles (playwright wants a Node Buffer). */
function upload(name: string, mimeType: string, bytes: Uint8Array) {
  return { name, mimeType, buffer: Buffer.from(bytes) };
}

async function toast(page: Page, text: string): Promise<void> {
  await page.locator(".toasts").getByText(text, { exact: true }).first().waitFor({ timeout: 10_000 });
}

Deno.test({
  name: "ColorsTab saves a palette pick at once and every page, for every user, paints it from the server",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "super@balcao.local");
      const before = await topBarColor(page);
      assert.notEqual(before, RED);

      // The tab's first data is in the server's HTML.
      const html = await page.evaluate(async () => (await fetch("/settings?tab=colors", { headers: { accept: "text/html" } })).text());
      assert.match(html, /data-testid="palette-mainColor"/);
      await page.goto(`${server.url}/settings?tab=colors`);
      const main = page.getByTestId("palette-mainColor");
      await main.getByRole("radio", { name: "#dc2626" }).click();
      await toast(page, "Operação atualizada com sucesso.");
      assert.equal(await main.getByRole("radio", { name: "#dc2626" }).getAttribute("aria-checked"), "true");
      assert.equal(await topBarColor(page), RED, "the top bar follows the main colour at once");

      // The background field refuses an address the server would refuse, before any call.
      await page.getByLabel("Imagem de fundo das páginas").fill('https://x/a.png")');
      await page.getByRole("button", { name: "Salvar" }).click();
      await page.getByText("Informe um endereço https://… ou /… sem espaços nem aspas.").waitFor();
      await screenshot(page, "settings_colors");

      await page.reload();
      await main.waitFor({ timeout: 20_000 });
      assert.equal(await topBarColor(page), RED, "after a reload");

      // Another user, in another browser context, gets the platform's colour on first paint.
      const other = await (await chrome.newContext()).newPage();
      await loginToShell(other, server.url, "admin@demo.local");
      assert.equal(await topBarColor(other), RED);
      const first = await other.evaluate(async () => (await fetch("/tickets", { headers: { accept: "text/html" } })).text());
      assert.match(first, /<style id="branding-tokens"[^>]*>:root\{--primary:#dc2626/);

      // The branding tabs are the platform owner's: a company admin who opens one by link gets
      // the super-only screens' answer (001 §2.7, §8), then /; the Opções tab has no Cores tab.
      await other.goto(`${server.url}/settings?tab=colors`);
      await other.getByTestId("gate-notice").getByText("Sem permissão para acessar!").waitFor({ timeout: 20_000 });
      assert.equal(await other.getByTestId("palette-mainColor").count(), 0);
      await other.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
      await other.goto(`${server.url}/settings`);
      await other.getByRole("tab", { name: "Opções" }).waitFor({ timeout: 20_000 });
      assert.equal(await other.getByRole("tab", { name: "Cores" }).count(), 0);
      assert.equal((await server.login("admin@demo.local").then((c) => c.put("/settings/mainColor", { value: "#000000" }))).status, 403);

      // Phone width.
      await page.setViewportSize({ width: 390, height: 800 });
      await page.reload();
      await main.waitFor({ timeout: 20_000 });
      await assertFitsWidth(page);
      await screenshot(page, "settings_colors_phone");

      // The dark theme keeps its fixed top bar and takes the main colour for accents.
      await page.context().addCookies([{ name: "theme", value: "dark", url: server.url }]);
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.reload();
      await main.waitFor({ timeout: 20_000 });
      assert.equal(await topBarColor(page), "rgb(31, 41, 55)");
      await screenshot(page, "settings_colors_dark");
    });
  },
});

Deno.test({
  name: "LogosTab warns as the spec says, uploads a PNG logo that /login shows from the first paint; documents and certificate upload",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "super@balcao.local");
      await page.goto(`${server.url}/settings?tab=logos`);
      const tab = page.getByTestId("upload-logo");
      await tab.waitFor({ timeout: 20_000 });
      const send = tab.getByRole("button", { name: "Enviar" });
      const file = tab.getByLabel("Arquivo");
      const logo = await pngBanner(240, 72, [220, 38, 38]);

      await send.click();
      await toast(page, "Escolha um arquivo!");
      await file.setInputFiles(upload("logo.png", "image/png", logo));
      await send.click();
      await toast(page, "Escolha um destino!");
      await tab.getByLabel("Destino").selectOption({ label: "Login" });
      await file.setInputFiles(upload("logo.jpg", "image/jpeg", logo));
      await send.click();
      await toast(page, "Use somente arquivos em formato PNG!");
      // Named .png but not a PNG: the server judges the bytes and says the same.
      await file.setInputFiles(upload("fake.png", "image/png", new TextEncoder().encode("<svg/>")));
      await send.click();
      await toast(page, "Use somente arquivos em formato PNG!");

      await file.setInputFiles(upload("logo.png", "image/png", logo));
      await send.click();
      await toast(page, "Arquivo enviado com sucesso!");
      const row = tab.locator('li[data-dest="login"]');
      await row.getByText("Enviado em", { exact: false }).waitFor({ timeout: 10_000 });
      await row.locator("img").waitFor();
      await screenshot(page, "settings_logos");

      // Documents and the Pix certificate, each with its own type rule.
      await page.getByRole("tab", { name: "Documentos" }).click();
      const docs = page.getByTestId("upload-doc");
      await docs.getByLabel("Destino").selectOption({ label: "Termos de uso" });
      await docs.getByLabel("Arquivo").setInputFiles(upload("termos.png", "image/png", logo));
      await docs.getByRole("button", { name: "Enviar" }).click();
      await toast(page, "Use somente arquivos em formato PDF!");
      await docs.getByLabel("Arquivo").setInputFiles(upload("termos.pdf", "application/pdf", PDF_BYTES));
      await docs.getByRole("button", { name: "Enviar" }).click();
      await toast(page, "Arquivo enviado com sucesso!");
      await docs.locator('li[data-dest="termos"]').getByRole("link", { name: "Abrir" }).waitFor({ timeout: 10_000 });
      await page.getByRole("tab", { name: "Certificado Pix" }).click();
      const cert = page.getByTestId("upload-cert");
      await cert.getByLabel("Destino").selectOption({ label: "Certificado Efí (Pix)" });
      await cert.getByLabel("Arquivo").setInputFiles(upload("efi.p12", "application/x-pkcs12", p12Bytes()));
      await cert.getByRole("button", { name: "Enviar" }).click();
      await toast(page, "Arquivo enviado com sucesso!");
      await cert.locator('li[data-dest="certificadoEfi"]').getByText("Enviado em", { exact: false }).waitFor({ timeout: 10_000 });

      // A visitor's /login shows the logo in the server's HTML, the card's text brand hidden.
      const visitor = await (await chrome.newContext({ viewport: { width: 390, height: 800 } })).newPage();
      await visitor.goto(`${server.url}/login`);
      const img = visitor.getByTestId("brand-logo-login");
      await img.waitFor();
      // Visible (its alt text) is not loaded: wait for the file, then check what was drawn.
      await img.evaluate((el) => (el as HTMLImageElement).decode().catch(() => {}));
      assert.ok(await img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth === 240));
      assert.equal(await visitor.locator(".public-card .brand").isVisible(), false);
      await assertFitsWidth(visitor);
      await screenshot(visitor, "login_branded");
    });
  },
});
