/**
 * Issue #38: a location message whose body is not a map link. A customer sends a location
 * with `javascript:` as its body; in a real browser the conversation shows it as text, never
 * as a link's href, and clicking it runs nothing. A location with coordinates still links to
 * the map.
 */
import assert from "node:assert/strict";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { withServer } from "./helpers/server.ts";
import { hasChromium, loginAs, screenshot, withPage } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const ATTACK = "javascript:document.title='pwned'";

Deno.test({
  name: "MessageBubble: a location whose body is javascript: is shown as text, not a link; coordinates link to the map",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const conn = await demoConnection(admin);
      const from = "5511944447001";
      for (const body of [ATTACK, "-23.5505, -46.6333"]) {
        const r = await admin.post(`/simulator/${conn.id}/inbound`, { from, name: "Cliente Local", body, mediaType: "locationMessage" });
        assert.equal(r.status, 200, JSON.stringify(r.body));
      }
      await eventually(async () => {
        const list = (await admin.get("/tickets?status=pending&showAll=true")).body.tickets as Array<{ contact: { name: string }; unreadMessages: number }>;
        return list.find((t) => t.contact.name === "Cliente Local" && t.unreadMessages >= 2);
      }, 20_000, "the ticket with both locations");
      await withPage(async (page) => {
        const dialogs: string[] = [];
        page.on("dialog", (d) => {
          dialogs.push(d.message());
          d.dismiss().catch(() => {});
        });
        await loginAs(page, server.url, "supervisor@demo.local");
        await page.getByTestId("subtab-pending").click();
        await page.locator('[data-testid="list-pending"] .ticket-row', { hasText: "Cliente Local" }).getByTestId("spy").click();
        const dialog = page.getByTestId("spy-dialog");
        const text = dialog.getByTestId("location-text");
        await text.waitFor({ timeout: 15_000 });
        assert.match(await text.innerText(), /Localização: javascript:/);
        const map = dialog.locator('a.media-doc[href^="https://maps.google.com/"]');
        await map.waitFor();
        assert.equal(await map.getAttribute("href"), "https://maps.google.com/maps?q=-23.5505,-46.6333");
        // No element anywhere carries a script URL, and clicking the location runs nothing.
        const scriptLinks = await page.locator('[href^="javascript:" i], [src^="javascript:" i]').count();
        assert.equal(scriptLinks, 0);
        const title = await page.title();
        await text.click();
        assert.equal(await page.title(), title);
        assert.notEqual(await page.title(), "pwned");
        assert.deepEqual(dialogs, []);
        await screenshot(page, "location_text_not_link");
      }, { viewport: { width: 1280, height: 800 } });
    });
  },
});
