/**
 * Browser tests of the top bar's notification bell and the socket rooms (spec 000 §2, §7;
 * issue #36): on a page other than /tickets a customer's message rings and the bell lists
 * the pending ticket with its count, live; the tickets screen's lists and conversations send
 * leaveTickets / leaveChatBox when they close, and the bell's page its joinNotification.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { demoConnection, eventually } from "./helpers/channels.ts";
import { type Client, withServer } from "./helpers/server.ts";
import { hasChromium, launchBrowser, loginToShell, screenshot, watchSocket } from "./helpers/browser.ts";

const opts = { ignore: !hasChromium(), sanitizeOps: false, sanitizeResources: false };
const WIDE = { viewport: { width: 1280, height: 800 } };

/** The client frames `page` sends on its `/ws` sockets, parsed. */
function sentFrames(page: Page): Array<Record<string, unknown>> {
  const frames: Array<Record<string, unknown>> = [];
  page.on("websocket", (ws) => {
    ws.on("framesent", ({ payload }) => {
      if (typeof payload !== "string") return;
      try {
        frames.push(JSON.parse(payload));
      } catch { /* not JSON */ }
    });
  });
  return frames;
}

/** Counts the notification tones the page starts (islands/shell/sound.ts plays an oscillator). */
const COUNT_TONES = () => {
  const w = globalThis as unknown as { __tones: number; AudioContext: typeof AudioContext };
  w.__tones = 0;
  const Original = w.AudioContext;
  w.AudioContext = class extends Original {
    override createOscillator() {
      const osc = super.createOscillator();
      const start = osc.start.bind(osc);
      osc.start = (when?: number) => {
        w.__tones++;
        start(when);
      };
      return osc;
    }
  };
};

async function customerWrites(admin: Client, from: string, name: string, body: string) {
  const conn = await demoConnection(admin);
  const r = await admin.post(`/simulator/${conn.id}/inbound`, { from, name, body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

Deno.test({
  name: "NotificationsBell: on /contacts a customer's message rings and the bell lists the pending ticket with the server's count, live",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      const chrome = await launchBrowser();
      try {
        const context = await chrome.newContext(WIDE);
        await context.addInitScript(COUNT_TONES);
        const page = await context.newPage();
        const frames = sentFrames(page);
        const socket = watchSocket(page);
        await loginToShell(page, server.url, "admin@demo.local");
        await page.goto(`${server.url}/contacts`);
        await page.getByText("Olá").first().waitFor();
        await socket.ready();
        await eventually(() => frames.some((f) => f.type === "joinNotification") || undefined, 10_000, "joinNotification on /contacts");
        assert.equal(await page.getByTestId("notifications-count").count(), 0, "nothing unread yet");

        await customerWrites(admin, "5511977001001", "Cliente Sino Um", "Olá, alguém pode me atender?");
        await page.getByTestId("notifications-count").filter({ hasText: "1" }).waitFor({ timeout: 15_000 });
        await eventually(async () => (await page.evaluate(() => (globalThis as unknown as { __tones: number }).__tones)) >= 1 || undefined, 10_000, "the tone");

        await customerWrites(admin, "5511977001002", "Cliente Sino Dois", "Bom dia!");
        await page.getByTestId("notifications-count").filter({ hasText: "2" }).waitFor({ timeout: 15_000 });
        assert.equal(new URL(page.url()).pathname, "/contacts", "still on /contacts: no reload");

        await page.getByRole("button", { name: "Notificações" }).click();
        const items = page.getByTestId("notification-item");
        await items.filter({ hasText: "Cliente Sino Um" }).waitFor();
        await items.filter({ hasText: "Cliente Sino Dois" }).waitFor();
        const pending = (await admin.get("/tickets?status=pending")).body.tickets as Array<{ status: string; contact: { name: string } }>;
        assert.ok(pending.some((t) => t.contact.name === "Cliente Sino Um"), "the listed tickets are pending ones, waiting in a queue");
        await screenshot(page, "inbox_bell_contacts");
      } finally {
        await chrome.close();
      }
    });
  },
});

Deno.test({
  name: "TicketsPage: a hidden list sends leaveTickets and a conversation left sends leaveChatBox",
  ...opts,
  async fn() {
    await withServer(async (server) => {
      const admin = await server.login("admin@demo.local");
      await customerWrites(admin, "5511977002001", "Cliente Sala Um", "Oi");
      await customerWrites(admin, "5511977002002", "Cliente Sala Dois", "Oi");
      const pending = await eventually(async () => {
        const list = (await admin.get("/tickets?status=pending")).body.tickets as Array<{ id: number }>;
        return list.length >= 2 ? list : undefined;
      }, 15_000, "two pending tickets");
      const adminId = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
      for (const t of pending) assert.equal((await admin.put(`/tickets/${t.id}`, { status: "open", userId: adminId })).status, 200);

      const chrome = await launchBrowser();
      try {
        const page = await (await chrome.newContext(WIDE)).newPage();
        const frames = sentFrames(page);
        const socket = watchSocket(page);
        await loginToShell(page, server.url, "admin@demo.local");
        await socket.ready();
        await eventually(() => frames.some((f) => f.type === "joinTickets" && f.status === "open") || undefined, 10_000, "joinTickets open");
        assert.ok(frames.some((f) => f.type === "joinTickets" && f.status === "pending"), "joinTickets pending");

        await page.getByRole("tab", { name: "Resolvidas" }).click();
        await eventually(() => frames.some((f) => f.type === "leaveTickets" && f.status === "open") || undefined, 10_000, "leaveTickets open");
        assert.ok(frames.some((f) => f.type === "leaveTickets" && f.status === "pending"), "leaveTickets pending");
        assert.ok(frames.some((f) => f.type === "joinTickets" && f.status === "closed"), "the closed list joins its room");

        await page.getByRole("tab", { name: "Conversas" }).click();
        const rows = page.locator('[data-testid="list-open"] .ticket-row');
        await rows.filter({ hasText: "Cliente Sala Um" }).locator(".ticket-main").click();
        await page.getByTestId("chat").waitFor();
        const first = pending.find((t) => t.id === Number(frames.findLast((f) => f.type === "joinChatBox")?.ticketId));
        assert.ok(first, "the conversation joined its chat box");
        await rows.filter({ hasText: "Cliente Sala Dois" }).locator(".ticket-main").click();
        await eventually(() => frames.some((f) => f.type === "leaveChatBox" && f.ticketId === first.id) || undefined, 10_000, "leaveChatBox");
      } finally {
        await chrome.close();
      }
    });
  },
});
