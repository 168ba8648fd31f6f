/**
 * The islands of one page share the page's jotai store (islands/lib/page_store.ts, issue
 * #39): the shell and the page are two React roots, yet the session is asked for once, a
 * toast raised by the page shows in the shell's stack, the theme and the volume the top bar
 * sets are the page's, and hydration under the store logs no error.
 */
import assert from "node:assert/strict";
import { hasChromium } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: "page store: shell and page islands share one session, one toast stack, the theme and the volume, and hydrate cleanly",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "admin@demo.local");
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
      const sessionReads: string[] = [];
      page.on("request", (r) => new URL(r.url()).pathname === "/auth/me" && sessionReads.push(r.url()));

      await page.goto(`${server.url}/tags`);
      const table = page.getByTestId("tags-table");
      await table.waitFor({ timeout: 20_000 });
      // The shell's greeting and the page's gate both read the session: one request.
      await page.getByRole("banner").getByText(/seja bem-vindo/).waitFor({ timeout: 20_000 });
      assert.equal(sessionReads.length, 1, "the page's islands share one session");

      // The page island's save toasts; the shell island's stack shows it.
      await page.getByRole("button", { name: "Adicionar tag" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Nome").fill("Compartilhada");
      await dialog.getByTestId("tag-save").click();
      await dialog.waitFor({ state: "detached", timeout: 10_000 });
      const toast = page.getByTestId("toast");
      await toast.first().waitFor({ timeout: 10_000 });
      assert.match(await toast.first().innerText(), /salv/i);

      // The theme toggle and the volume are the page's: a reload keeps both.
      const theme = () => page.evaluate(() => document.documentElement.dataset.theme ?? "light");
      const before = await theme();
      await page.getByTestId("theme-toggle").click();
      assert.notEqual(await theme(), before);
      await page.getByRole("button", { name: "Volume" }).click();
      await page.locator('input[type="range"]').fill("0");
      await page.getByRole("button", { name: "Volume" }).press("Escape");
      await page.reload();
      await page.getByTestId("tags-table").waitFor({ timeout: 20_000 });
      assert.notEqual(await theme(), before, "the theme chosen stays after a reload");
      await page.getByRole("button", { name: "Volume" }).click();
      await page.waitForFunction(() => (document.querySelector('input[type="range"]') as HTMLInputElement | null)?.value === "0");

      await page.goto(`${server.url}/tickets`);
      await page.getByRole("tab", { name: "Resolvidas" }).waitFor({ timeout: 20_000 });
      assert.deepEqual(errors, [], "no island logged an error (a hydration mismatch would)");
    });
  },
});
