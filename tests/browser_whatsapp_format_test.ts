/**
 * WhatsApp's formatting in the inbox (issue #23 §5): a customer's message with every marker
 * shows as bold, italic, struck, monospace, a list, a quote and a safe link in its bubble,
 * and markup in the text stays text (the list preview without markers: islands/lib/format_test.ts).
 */
import assert from "node:assert/strict";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { hasChromium, screenshot } from "./helpers/browser.ts";
import { signedInPage, withServerAndBrowser } from "./helpers/browser_session.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };

const BODY = [
  "*Pedido 42:* _urgente_ ~cancelado~ ```ABC-1``` veja https://exemplo.com/p?x=1",
  "* primeiro item",
  "* segundo item",
  "1. um",
  "2. dois",
  "> citação",
  '<img src=x onerror="window.__pwned=1">',
].join("\n");

Deno.test({
  name: "a message with every WhatsApp marker renders formatted and safe in its bubble",
  ...opts,
  async fn() {
    await withServerAndBrowser(async (server, chrome) => {
      const admin = await server.login("admin@demo.local");
      const conn = await demoConnection(admin);
      const r = await admin.post(`/simulator/${conn.id}/inbound`, { from: "5511977776666", name: "Cliente Formatos", body: BODY });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const ticket = await eventually(async () => {
        const list = (await admin.get("/tickets?status=pending&showAll=true")).body.tickets as Array<{ uuid: string; contact: { name: string } }>;
        return list.find((t) => t.contact.name === "Cliente Formatos");
      }, 20_000, "the customer's ticket") as { uuid: string };

      const page = await signedInPage(chrome, server, "admin@demo.local", { viewport: { width: 1280, height: 800 } });
      await page.goto(`${server.url}/tickets/${ticket.uuid}`);
      const bubble = page.locator(".bubble-text", { hasText: "Pedido 42:" });
      await bubble.waitFor({ timeout: 20_000 });

      assert.equal(await bubble.locator("strong").first().innerText(), "Pedido 42:");
      assert.equal(await bubble.locator("em").first().innerText(), "urgente");
      assert.equal(await bubble.locator("s").first().innerText(), "cancelado");
      assert.equal(await bubble.locator("code").first().innerText(), "ABC-1");
      assert.deepEqual(await bubble.locator("ul > li").allInnerTexts(), ["primeiro item", "segundo item"]);
      assert.deepEqual(await bubble.locator("ol > li").allInnerTexts(), ["um", "dois"]);
      assert.equal(await bubble.locator("blockquote").innerText(), "citação");
      const link = bubble.locator("a");
      assert.equal(await link.getAttribute("href"), "https://exemplo.com/p?x=1");
      assert.equal(await link.getAttribute("rel"), "noopener noreferrer");
      assert.equal(await link.getAttribute("target"), "_blank");
      const text = await bubble.innerText();
      assert.ok(!/[*_~`]/.test(text.split("\n")[0]), `markers left in: ${text}`);
      // The markup is shown as text, never as an element.
      assert.equal(await bubble.locator("img").count(), 0);
      assert.match(text, /<img src=x onerror=/);
      assert.equal(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined);

      await screenshot(page, "whatsapp_format");
    });
  },
});
