/**
 * The pages under their Content-Security-Policy (server/http/security_headers.ts, #24), in a
 * real Chromium: every page of the app and the public ones load and hydrate their islands
 * (dashboard's chart.js, the schedules' FullCalendar, the reports, the webhooks, the API docs,
 * the survey, the simulator) with nothing blocked. The console is read for CSP reports
 * (tests/helpers/browser.ts fails on any) and uncaught errors; the branding's `<style>`
 * elements apply through the response's nonce, and an injected inline script does not run.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hasChromium } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

/** Pages an admin opens (each hydrates at least one island). */
const ADMIN_PAGES = [
  "/",
  "/tickets",
  "/schedules",
  "/relatorios",
  "/servicePanel",
  "/webhooks",
  "/settings",
  "/connections",
  "/contacts",
  "/queues",
  "/tags",
  "/users",
  "/quick-messages",
  "/helps",
  "/announcements",
  "/messages-api",
  "/simulator",
];
const PUBLIC_PAGES = ["/login", "/signup", "/forgotpassword", "/api-docs", "/survey?chavePesquisa=nenhuma"];

/** Collects uncaught page errors (a CSP refusal inside a library shows up here too). */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

/** Waits until every island of the page has hydrated (React attached to its element). */
async function islandsHydrated(page: Page, path: string): Promise<number> {
  const count = await page.locator("[data-island]").count();
  assert.ok(count > 0, `${path} has islands`);
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll("[data-island]")].every((el) =>
        Object.keys(el).some((k) => k.startsWith("__reactContainer"))
      ),
    undefined,
    { timeout: 20_000 },
  );
  return count;
}

Deno.test({
  name: "CSP: every page hydrates its islands with nothing blocked; branding styles apply by nonce; inline script does not run",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const page = await signedInPage(chrome, server, "admin@demo.local");
      const errors = pageErrors(page);
      const hydrated: string[] = [];
      for (const path of ADMIN_PAGES) {
        const response = await page.goto(`${server.url}${path}`);
        const csp = response!.headers()["content-security-policy"];
        assert.match(csp, /script-src 'self';/, path);
        assert.match(csp, /style-src-elem 'self' 'nonce-[\w+/=]+'/, path);
        assert.match(csp, /frame-ancestors 'none'/, path);
        hydrated.push(`${path} (${await islandsHydrated(page, path)})`);
        await page.waitForLoadState("networkidle");
      }
      // The dashboard's charts drew (chart.js needs no eval, no inline style element).
      await page.goto(`${server.url}/`);
      await page.locator("canvas").first().waitFor({ timeout: 20_000 });
      // The schedules' calendar rendered from its stylesheet under /build.
      await page.goto(`${server.url}/schedules`);
      await page.getByText("Hoje", { exact: true }).waitFor({ timeout: 30_000 });
      const calendarRules = await page.evaluate(() =>
        [...document.styleSheets].filter((s) => s.href?.includes("/build/")).reduce((n, s) => n + s.cssRules.length, 0)
      );
      assert.ok(calendarRules > 0, "FullCalendar's stylesheet loaded");

      // The branding tokens are a `<style nonce>`: their colour is in force.
      const primary = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--primary").trim());
      assert.ok(primary.length > 0, "the branding's --primary applies");
      // An inline script (as an injection would add) is refused and reported.
      const ran = await page.evaluate(() => {
        const w = globalThis as unknown as { injected?: boolean };
        const script = document.createElement("script");
        script.textContent = "globalThis.injected = true";
        document.body.append(script);
        return w.injected === true;
      });
      assert.equal(ran, false, "an inline script does not run");
      // That one refusal is expected (and proves the watcher hears them): off the list before close().
      await page.waitForFunction(() => true);
      assert.ok(chrome.cspViolations.length >= 1, "the refusal was reported");
      for (const v of chrome.cspViolations) assert.match(v, /inline script|script-src-elem refused inline/, "nothing else was refused");
      chrome.cspViolations.length = 0;

      const visitor = await (await chrome.newContext()).newPage();
      const visitorErrors = pageErrors(visitor);
      for (const path of PUBLIC_PAGES) {
        await visitor.goto(`${server.url}${path}`);
        hydrated.push(`${path} (${await islandsHydrated(visitor, path)})`);
        await visitor.waitForLoadState("networkidle");
      }
      console.log(`CSP: hydrated ${hydrated.length} pages: ${hydrated.join(", ")}`);
      assert.deepEqual([...errors, ...visitorErrors], [], "uncaught errors in pages");
    });
  },
});
