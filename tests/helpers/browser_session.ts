/**
 * The set-up every page test repeats: a fresh server and a browser session (contexts of the
 * file's headless Chromium), both closed whatever happens, and pages signed in through the
 * real login form.
 */
import type { BrowserContext, Page } from "playwright-core";
import type { Config } from "../../server/config.ts";
import { launchBrowser, loginToShell } from "./browser.ts";
import { type TestServer, withServer } from "./server.ts";

/** A browser session of a test (see launchBrowser). */
export type Chrome = Awaited<ReturnType<typeof launchBrowser>>;

/** Runs `fn` with a fresh test server and a browser session; closes the session, then the server. */
export async function withServerAndBrowser(
  fn: (server: TestServer, chrome: Chrome) => Promise<void>,
  overrides: Partial<Config> = {},
): Promise<void> {
  await withServer(async (server) => {
    const chrome = await launchBrowser();
    try {
      await fn(server, chrome);
    } finally {
      await chrome.close();
    }
  }, overrides);
}

/** A page of a new context of `chrome`, signed in as `email` through the login form. */
export async function signedInPage(
  chrome: Chrome,
  server: TestServer,
  email: string,
  options?: Parameters<Chrome["newContext"]>[0],
): Promise<Page> {
  const context: BrowserContext = await chrome.newContext(options);
  const page = await context.newPage();
  await loginToShell(page, server.url, email);
  return page;
}
