/**
 * Browser-test helpers: Debian's Chromium driven by playwright-core (headless, no sandbox,
 * background networking off; one process per test file, fresh contexts per test), a login
 * helper that goes through the real login form, and screenshots under tests/screenshots/
 * (not committed).
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { eventually } from "./channels.ts";

/**
 * Debian's Chromium: its headless shell (package chromium-headless-shell, the same engine
 * without the desktop browser around it) when installed, as Playwright itself runs headless
 * tests, else the full browser in its headless mode. The shell needs less than half the full
 * browser's CPU outside the page (measured on a 2-core machine: 12 s against 30 s for
 * tests/browser_tickets_extras_test.ts), and the browser tests are bound by CPU.
 */
export const CHROMIUM = ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"].find(isFile) ?? "/usr/bin/chromium";

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

const SHOTS = new URL("../screenshots/", import.meta.url).pathname;

/** The flags every test Chromium starts with. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

/**
 * The one Chromium of this test file, launched by its first browser test and closed after its
 * last (Deno.test.afterAll below). Starting and stopping a Chromium costs about a second on a
 * small machine, every test of a file paid it, and a test needs no process of its own: each
 * gets fresh contexts (cookies, storage, cache and permissions of their own, as a new
 * profile would), closed when its session closes. A browser that died is launched again.
 */
let shared: Promise<Browser> | undefined;

function sharedBrowser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }).catch((error) => {
    shared = undefined;
    throw error;
  });
  return shared.then((browser) => {
    if (browser.isConnected()) return browser;
    shared = undefined;
    return sharedBrowser();
  });
}

Deno.test.afterAll(async () => {
  const browser = await shared?.catch(() => undefined);
  shared = undefined;
  await browser?.close();
});

/**
 * A browser session for one test: contexts of the file's shared headless Chromium, each a
 * fresh profile, all closed by close().
 */
export async function launchBrowser(): Promise<{
  newContext: (options?: Parameters<Browser["newContext"]>[0]) => Promise<BrowserContext>;
  /** What the pages' Content-Security-Policy refused so far; close() fails while it is not empty. */
  cspViolations: string[];
  close: () => Promise<void>;
}> {
  const browser = await sharedBrowser();
  const contexts: BrowserContext[] = [];
  // Every page of this session reports what the Content-Security-Policy blocked; close() fails
  // the test with the list, so no page ships an inline script or style the policy refuses.
  const cspViolations: string[] = [];
  const watch = (page: Page) =>
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) {
        cspViolations.push(`${page.url()}: ${message.text()}`);
      }
    });
  return {
    cspViolations,
    async newContext(options) {
      const context = await browser.newContext({ locale: "pt-BR", ...options });
      contexts.push(context);
      // Chromium logs most refusals itself; a caught `eval` (zod's probe) only fires the event.
      await context.addInitScript(() =>
        document.addEventListener("securitypolicyviolation", (e) =>
          console.error(`Content Security Policy event: ${e.violatedDirective} refused ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`))
      );
      context.on("page", watch);
      return context;
    },
    async close() {
      await Promise.all(contexts.splice(0).map((context) => context.close().catch(() => {})));
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

/**
 * Saves a screenshot of the viewport as tests/screenshots/<name>.png; what `hide` selects
 * (e.g. ".toasts") is left out of the picture only, so nothing waits for it to go away.
 */
export async function screenshot(page: Page, name: string, hide?: string): Promise<void> {
  await Deno.mkdir(SHOTS, { recursive: true });
  // Through the elements' style properties: the pages' Content-Security-Policy refuses the
  // <style> element Playwright's own `style` option would add.
  const setVisibility = (visibility: string) =>
    hide && page.evaluate(([selector, visibility]) => {
      for (const element of document.querySelectorAll<HTMLElement>(selector)) element.style.visibility = visibility;
    }, [hide, visibility]);
  await setVisibility("hidden");
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: false });
  await setVisibility("");
}

/** Whether Chromium is installed (CI installs it; skip browser tests when it is absent). */
export function hasChromium(): boolean {
  return isFile(CHROMIUM);
}

/**
 * Runs `fn` with a fresh page of a new context (options as for `newContext`) of the file's
 * Chromium, and closes the context afterwards whatever happens.
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

/** The realtime socket of a page (islands/lib/socket.ts), as watchSocket follows it. */
export interface SocketWatch {
  /**
   * Resolves once the socket of the page's current document is authenticated (the hub's
   * `hello` arrived): from then on the page gets the live events. An event published before
   * it is replayed when the socket resumes from the page's render (the `live-seq` meta), but
   * a test that changes something on the server right after a goto/reload still waits for
   * this, so what it measures or expects does not depend on that replay's timing (nor on a
   * join frame the page sends once its socket is open).
   */
  ready(ms?: number): Promise<void>;
}

/** Follows `page`'s `/ws` sockets; call before the navigation whose socket is awaited. */
export function watchSocket(page: Page): SocketWatch {
  // Each document load (a navigation request of the main frame) starts a new generation: the
  // socket of the document before it is no answer after a goto or reload.
  let generation = 0;
  const sockets: Array<{ generation: number; hello: boolean; closed: boolean }> = [];
  page.on("request", (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) generation++;
  });
  page.on("websocket", (ws) => {
    if (new URL(ws.url()).pathname !== "/ws") return;
    const socket = { generation, hello: false, closed: false };
    sockets.push(socket);
    ws.on("framereceived", ({ payload }) => {
      if (typeof payload === "string" && payload.includes('"type":"hello"')) socket.hello = true;
    });
    ws.on("close", () => (socket.closed = true));
  });
  return {
    async ready(ms = 20_000) {
      await eventually(() => sockets.some((s) => s.generation === generation && s.hello && !s.closed) || undefined, ms, "the page's socket hello");
    },
  };
}
