/**
 * Browser-test helpers: Debian's Chromium driven by playwright-core (headless, no sandbox,
 * background networking off, a fresh profile per browser), a login helper that goes through
 * the real login form, and screenshots under tests/screenshots/ (not committed).
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
const SHOTS = new URL("../screenshots/", import.meta.url).pathname;

/** Launches a headless Chromium (playwright gives each launch a fresh temporary profile). */
export async function launchBrowser(): Promise<{
  browser: Browser;
  newContext: (options?: Parameters<Browser["newContext"]>[0]) => Promise<BrowserContext>;
  /** What the pages' Content-Security-Policy refused so far; close() fails while it is not empty. */
  cspViolations: string[];
  close: () => Promise<void>;
}> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
  // Every page of this browser reports what the Content-Security-Policy blocked; close() fails
  // the test with the list, so no page ships an inline script or style the policy refuses.
  const cspViolations: string[] = [];
  const watch = (page: Page) =>
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) {
        cspViolations.push(`${page.url()}: ${message.text()}`);
      }
    });
  return {
    browser,
    cspViolations,
    async newContext(options) {
      const context = await browser.newContext({ locale: "pt-BR", ...options });
      // Chromium logs most refusals itself; a caught `eval` (zod's probe) only fires the event.
      await context.addInitScript(() =>
        document.addEventListener("securitypolicyviolation", (e) =>
          console.error(`Content Security Policy event: ${e.violatedDirective} refused ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`))
      );
      context.on("page", watch);
      return context;
    },
    async close() {
      await browser.close();
      if (cspViolations.length > 0) {
        throw new Error(`The page's Content-Security-Policy blocked (server/http/security_headers.ts):\n${cspViolations.join("\n")}`);
      }
    },
  };
}

/** Logs in through the form at /login and waits for the tickets page. */
export async function loginAs(page: Page, baseUrl: string, email: string, password = "demo1234"): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("E-mail").fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(/\/tickets/, { timeout: 20_000 });
}

/** Saves a full-page screenshot as tests/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: false });
}

/** Whether Chromium is installed (CI installs it; skip browser tests when it is absent). */
export function hasChromium(): boolean {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
}

/**
 * Runs `fn` with a fresh page of a new headless Chromium (context options as for
 * `newContext`), and closes the browser afterwards whatever happens.
 */
export async function withPage(
  fn: (page: Page) => Promise<void>,
  options?: Parameters<Browser["newContext"]>[0],
): Promise<void> {
  const chrome = await launchBrowser();
  try {
    await fn(await (await chrome.newContext(options)).newPage());
  } finally {
    await chrome.close();
  }
}

/** Logs in through the form (see loginAs) and waits until the shell greets the user ("Olá"). */
export async function loginToShell(page: Page, baseUrl: string, email: string): Promise<void> {
  await loginAs(page, baseUrl, email);
  await page.getByText("Olá").first().waitFor({ timeout: 20_000 });
}

/** Asserts that the page does not scroll sideways as a whole (tables scroll inside their frame). */
export async function assertFitsWidth(page: Page, what = "the page"): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - globalThis.innerWidth);
  if (overflow > 0) throw new Error(`${what} scrolls sideways by ${overflow} px at ${page.viewportSize()?.width} px`);
}
