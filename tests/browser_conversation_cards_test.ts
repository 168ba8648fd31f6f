/**
 * Browser tests of what a conversation shows besides text (spec 000 §3, §5, §7; issue #36):
 * a link's preview card fetched once per page from GET /messages/metadados (against a local
 * page, with the closed-network switch on), contact cards with their lookup and "Conversar"
 * (disabled outside WhatsApp or without a name or number), the message search reaching a
 * match on an older page, and the info toast of media still uploading.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { vcard } from "../domain/message.ts";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { type Client, type TestServer, withServer } from "./helpers/server.ts";
import { hasChromium, launchBrowser, loginToShell, screenshot } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const WIDE = { viewport: { width: 1280, height: 800 } };
const PIXEL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** A customer writes each of `messages` on the demo connection; resolves with the ticket, opened by the admin. */
async function conversation(server: TestServer, admin: Client, from: string, name: string, messages: Array<{ body: string; mediaType?: string }>) {
  const conn = await demoConnection(admin);
  for (const m of messages) {
    const r = await admin.post(`/simulator/${conn.id}/inbound`, { from, name, ...m });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  const ticket = await eventually(async () => {
    const list = (await admin.get("/tickets?status=pending&showAll=true")).body.tickets as Array<{ id: number; uuid: string; contact: { name: string }; unreadMessages: number }>;
    const found = list.find((t) => t.contact.name === name);
    return found && found.unreadMessages >= messages.length ? found : undefined;
  }, 30_000, `the ticket of ${name}`);
  const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
  assert.equal((await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId })).status, 200);
  return ticket;
}

/** The open conversation's header naming `name`. */
function chatOf(page: Page, name: string) {
  return page.locator('[data-testid="chat"] .chat-title', { hasText: name });
}

async function openChat(page: Page, name: string) {
  await page.locator('[data-testid="list-open"] .ticket-row', { hasText: name }).locator(".ticket-main").click();
  await chatOf(page, name).waitFor();
}

Deno.test({
  name: "MessageBubble: a link shows its preview card, fetched once; contact cards look the number up and 'Conversar' opens the new ticket",
  ...opts,
  async fn() {
    let hits = 0;
    const site = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () => {
      hits++;
      return new Response(
        `<html><head><title>Loja</title><meta property="og:title" content="Loja Exemplo"><meta property="og:description" content="Tudo para sua casa"><meta property="og:image" content="${PIXEL}"></head></html>`,
        { headers: { "content-type": "text/html" } },
      );
    });
    const link = `http://127.0.0.1:${site.addr.port}/produto`;
    try {
      await withServer(async (server) => {
        const admin = await server.login("admin@demo.local");
        await conversation(server, admin, "5511977003001", "Cliente Cartões", [
          { body: `Olha este produto: ${link}` },
          { body: `De novo o mesmo link ${link}` },
          { body: vcard("Amiga Indicada", "5511977003999"), mediaType: "vcard" },
          { body: vcard("Fora do Zap", "55119876"), mediaType: "vcard" },
          { body: "BEGIN:VCARD\nVERSION:3.0\nFN:Sem Número\nEND:VCARD", mediaType: "vcard" },
        ]);
        const chrome = await launchBrowser();
        try {
          const page = await (await chrome.newContext(WIDE)).newPage();
          await loginToShell(page, server.url, "admin@demo.local");
          await openChat(page, "Cliente Cartões");

          const previews = page.getByTestId("link-preview");
          await eventually(async () => (await previews.count()) === 2 || undefined, 15_000, "two preview cards");
          for (const card of await previews.all()) {
            assert.match(await card.innerText(), /Loja Exemplo[\s\S]*Tudo para sua casa[\s\S]*127\.0\.0\.1/);
            assert.equal(await card.getAttribute("href"), link);
            assert.equal(await card.locator("img").getAttribute("src"), PIXEL);
          }
          assert.equal(hits, 1, "one fetch for the two messages");

          const cards = page.getByTestId("contact-card");
          const outside = cards.filter({ hasText: "Fora do Zap" });
          await outside.getByTestId("contact-card-status").filter({ hasText: "Contato fora do WhatsApp" }).waitFor({ timeout: 15_000 });
          assert.equal(await outside.getByTestId("contact-card-chat").isDisabled(), true);
          const incomplete = cards.filter({ hasText: "Sem Número" });
          await incomplete.getByText("Cartão de contato sem nome ou número").waitFor();
          assert.equal(await incomplete.getByTestId("contact-card-chat").isDisabled(), true);
          const friend = cards.filter({ hasText: "Amiga Indicada" }).getByTestId("contact-card-chat");
          await eventually(async () => (await friend.isEnabled()) || undefined, 15_000, "the friend's number checked");
          await screenshot(page, "conversation_cards");
          assert.equal((await admin.get("/contacts/?searchParam=Amiga")).body.contacts.length, 0, "looking up creates nothing");

          await friend.click();
          await chatOf(page, "Amiga Indicada").waitFor({ timeout: 15_000 });
          const created = await eventually(async () => {
            const list = (await admin.get("/tickets?status=open&showAll=true")).body.tickets as Array<{ uuid: string; contact: { name: string; number: string } }>;
            return list.find((t) => t.contact.name === "Amiga Indicada");
          }, 10_000, "the friend's ticket");
          assert.equal(created.contact.number, "5511977003999");
          assert.equal(new URL(page.url()).pathname, `/tickets/${created.uuid}`);

          // Back to the first conversation: the previews come from the page's cache.
          await openChat(page, "Cliente Cartões");
          await eventually(async () => (await previews.count()) === 2 || undefined, 10_000, "previews again");
          assert.equal(hits, 1, "not fetched again");
        } finally {
          await chrome.close();
        }
      }, { linkPreviewAllowPrivate: true });
    } finally {
      await site.shutdown();
    }
  },
});

Deno.test({
  name: "MessageSearch: a match on an older page is loaded and scrolled into view; media still uploading shows the info toast",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const filler = Array.from({ length: 45 }, (_, i) => ({ body: `Mensagem de enchimento ${i + 1}` }));
      await conversation(server, admin, "5511977004001", "Cliente Busca", [
        { body: "Primeira mensagem com a palavra zebra" },
        ...filler,
        { body: "Outra zebra, a mais recente" },
      ]);
      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext(WIDE)).newPage();
        await loginToShell(page, server.url, "admin@demo.local");
        await openChat(page, "Cliente Busca");
        await page.locator(".bubble-row", { hasText: "Outra zebra" }).waitFor();
        const oldest = page.locator(".bubble-row", { hasText: "Primeira mensagem com a palavra zebra" });
        assert.equal(await oldest.count(), 0, "the oldest page is not loaded yet");

        await page.getByRole("button", { name: "Buscar mensagens" }).click();
        const search = page.getByTestId("message-search");
        await search.getByRole("searchbox").fill("zebra");
        await search.getByRole("searchbox").press("Enter");
        await page.getByTestId("message-search-count").filter({ hasText: "1 de 2" }).waitFor();
        await page.locator(".bubble-row.found", { hasText: "Outra zebra" }).waitFor();

        await page.getByTestId("search-older").click();
        await page.getByTestId("message-search-count").filter({ hasText: "2 de 2" }).waitFor({ timeout: 15_000 });
        await page.locator(".bubble-row.found", { hasText: "Primeira mensagem com a palavra zebra" }).waitFor();
        const inView = await oldest.evaluate((el) => {
          const box = el.getBoundingClientRect();
          const frame = el.closest('[data-testid="messages"]')!.getBoundingClientRect();
          return box.top >= frame.top && box.bottom <= frame.bottom;
        });
        assert.equal(inView, true, "the older match is scrolled into the conversation's view");
        await screenshot(page, "conversation_search_older");

        await page.locator('input[type="file"]').setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: Buffer.from(PIXEL.split(",")[1], "base64") });
        await page.getByTestId("toast").filter({ hasText: "Processando mídia..." }).waitFor({ timeout: 10_000 });
        await page.locator(".bubble-row.out img.media-image").waitFor({ state: "attached", timeout: 10_000 });
      } finally {
        await chrome.close();
      }
    });
  },
});
