/**
 * Accessibility audit (issue #37): axe-core's WCAG 2 A and AA rules over every page of the
 * route table (server/pages/route_table.ts), private pages as the admin and as the agent,
 * public pages signed out, each in the light and the dark theme, with the demo's records in
 * them (a ticket, a chat, a campaign, a contact list). No violation of serious or critical
 * impact may remain. One server and one browser serve the whole sweep.
 *
 * Each page is opened once: every rule runs in the light theme, then the theme is switched in
 * place as the shell's toggle does and the colour rules run again, since a theme changes the
 * token values and nothing else. A page the user may not open sends it elsewhere; one whose
 * destination was audited already is not opened again. A11Y_TIMING=1 prints each page's cost.
 *
 * axe's source is evaluated in the page rather than added as a <script>: the pages'
 * Content-Security-Policy would refuse an inline script, and stays on for the audit.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { PAGE_ROUTES } from "../server/pages/route_table.ts";
import { hasChromium, loginToShell } from "./helpers/browser.ts";
import { withServerAndBrowser } from "./helpers/browser_session.ts";
import type { TestServer } from "./helpers/server.ts";
import { demoRecords } from "./helpers/demo_records.ts";
import { routeGate } from "../islands/shell/menu.ts";
import type { SessionUser } from "../islands/lib/session.ts";

const AXE_SOURCE = await Deno.readTextFile(new URL("../node_modules/axe-core/axe.min.js", import.meta.url));
/** axe's tags of WCAG 2.0, 2.1 and 2.2, levels A and AA. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Rules whose result depends on the colours, the only thing a theme changes. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** The serious and critical violations of axe's WCAG rules (or of `rules` only) on the page as it is now. */
async function audit(page: Page, rules?: string[]): Promise<Violation[]> {
  if (!await page.evaluate(() => "axe" in globalThis)) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async ({ tags, rules }) => {
    // deno-lint-ignore no-explicit-any -- axe is the global the evaluated source defined
    const axe = (globalThis as any).axe;
    const runOnly = rules ? { type: "rule", values: rules } : { type: "tag", values: tags };
    const result = await axe.run(document, { runOnly, resultTypes: ["violations"] });
    return result.violations as Violation[];
  }, { tags: WCAG_TAGS, rules });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Switches the page's theme in place, as the shell's toggle does (islands/shell/theme.ts), and lets it repaint. */
async function switchTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await page.evaluate(async (theme) => {
    document.documentElement.dataset.theme = theme;
    for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(done));
  }, theme);
}

/**
 * Opens `url` and resolves once nothing has been loading for a moment: the islands drew,
 * their data arrived, and a page that sends this user elsewhere has done so.
 */
async function open(page: Page, url: string): Promise<void> {
  const pending = new Set<unknown>();
  let quietSince = performance.now();
  const start = (r: unknown) => pending.add(r);
  const end = (r: unknown) => {
    pending.delete(r);
    if (pending.size === 0) quietSince = performance.now();
  };
  page.on("request", start);
  page.on("requestfinished", end);
  page.on("requestfailed", end);
  try {
    await page.goto(url);
    const deadline = performance.now() + 15_000;
    while (pending.size > 0 || performance.now() - quietSince < 150) {
      if (performance.now() > deadline) throw new Error(`${url} kept loading: ${pending.size} requests`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    page.off("request", start);
    page.off("requestfinished", end);
    page.off("requestfailed", end);
  }
}

/** Every page of the route table, optional parameters both left out and filled with one of `records`. */
function pagePaths(kind: "public" | "private", records: Record<string, string> = {}): string[] {
  return PAGE_ROUTES.filter((r) => r.kind === kind).flatMap(({ pattern }) => {
    const filled = pattern.replace(/:(\w+)\??/g, (_all, name: string) => records[name] ?? assert.fail(`no record for ${name} of ${pattern}`));
    return pattern.includes("?") ? [pattern.replace(/\/:\w+\?/, "") || "/", filled] : [filled];
  });
}

/**
 * The demo records the pages with a parameter show, as `who` may open them: the chat, the
 * campaign and the contact list the admin made (demo_records.ts), and a ticket of `who`'s own
 * (its page is /tickets/{uuid}).
 */
async function pageRecords(server: TestServer, ids: Record<string, string>, who: string): Promise<Record<string, string>> {
  const client = await server.login(`${who}@demo.local`);
  let ticketId = ids.ticketId;
  if (who !== "admin") {
    const admin = await server.login("admin@demo.local");
    const contact = await admin.post("/contacts", { name: `Cliente de ${who}`, number: `55119${String(Date.now()).slice(-8)}` });
    const ticket = await client.post("/tickets", { contactId: contact.body.id, status: "open", queueId: server.demo!.queueIds[0] });
    assert.equal(ticket.status, 200, JSON.stringify(ticket.body));
    ticketId = ticket.body.id;
  }
  const ticket = await client.get(`/tickets/${ticketId}`);
  assert.equal(ticket.status, 200, JSON.stringify(ticket.body));
  return {
    ticketId: ticket.body.uuid,
    id: ids["/chats/:id id"],
    campaignId: ids["/campaigns id"],
    contactListId: ids["/contact-lists id"],
  };
}

/**
 * Where `path` leaves `user`: a page it may not open shows why, then sends it on
 * (islands/shell/menu.ts), perhaps to another it may not open either (an agent's / sends
 * it to /tickets).
 */
function destinationOf(user: SessionUser, path: string): string {
  let destination = path;
  for (let gate = routeGate(user, path), hops = 0; gate && hops < 5; gate = routeGate(user, destination), hops++) {
    destination = gate.to ?? "/";
  }
  return destination;
}

const described = (where: string, v: Violation) =>
  `${where}: ${v.id} (${v.impact}) ${v.help}\n${v.nodes.slice(0, 10).map((n) => `    ${n.target.join(" ")} ${n.failureSummary?.split("\n").slice(1, 2).join("") ?? ""}`).join("\n")}`;

Deno.test({
  name: "axe-core finds no serious or critical WCAG 2 A/AA violation on any page, as admin and agent, in both themes",
  ignore: !hasChromium(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const ids = await demoRecords(server, await server.login("admin@demo.local"));
      const found: string[] = [];
      const audited: string[] = [];
      /** Audits each of `paths` as `who`: every rule in the light theme, the colour rules again in the dark one. */
      const sweep = async (paths: string[], who: string) => {
        const context = await chrome.newContext();
        const page = await context.newPage();
        let user: SessionUser | undefined;
        if (who !== "signed-out") {
          await loginToShell(page, server.url, `${who}@demo.local`);
          user = (await (await server.login(`${who}@demo.local`)).get("/auth/me")).body;
        }
        const seen = new Set<string>();
        for (const path of paths) {
          const destination = user ? destinationOf(user, path) : path;
          if (destination !== path && seen.has(destination)) continue;
          const t0 = performance.now();
          await open(page, server.url + path);
          if (destination !== path) {
            await page.waitForURL((url) => url.pathname === destination, { timeout: 10_000 });
            await open(page, page.url());
          }
          const t1 = performance.now();
          const landed = new URL(page.url()).pathname;
          if (seen.has(landed)) continue;
          seen.add(landed);
          for (const v of await audit(page)) found.push(described(`${who} light ${path}`, v));
          const t2 = performance.now();
          await switchTheme(page, "dark");
          for (const v of await audit(page, COLOUR_RULES)) found.push(described(`${who} dark ${path}`, v));
          await switchTheme(page, "light");
          audited.push(`${who} ${landed}`);
          if (Deno.env.get("A11Y_TIMING")) console.log(`${who} ${path} → ${landed}: open ${Math.round(t1 - t0)} ms, light ${Math.round(t2 - t1)} ms, dark ${Math.round(performance.now() - t2)} ms`);
        }
        await context.close();
      };
      await sweep(pagePaths("public"), "signed-out");
      const adminPaths = pagePaths("private", await pageRecords(server, ids, "admin"));
      await sweep(adminPaths, "admin");
      await sweep(pagePaths("private", await pageRecords(server, ids, "agent")), "agent");
      console.log(`${audited.length} pages audited in both themes`);
      assert.deepEqual(found, [], `${found.length} serious or critical violations:\n${found.join("\n")}`);
      // Every page the admin may open was audited as the admin (the super user's pages send it to /).
      const superOnly = ["/announcements", "/companies", "/connection-alerts"];
      assert.deepEqual(adminPaths.filter((p) => !superOnly.includes(p) && !audited.includes(`admin ${p}`)), []);
    });
  },
});
