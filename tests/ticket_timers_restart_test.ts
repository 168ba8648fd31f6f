/**
 * A ticket's auto-close survives a crash (issue #17): armed by the agent's message in the real
 * entry point (server/main.ts as a child process on a file store), the process is SIGKILLed
 * before the timer is due, restarted on the same BALCAO_KV, and the ticket closes once, after
 * its due time, with the close message stored once.
 */
import assert from "node:assert/strict";
import { eventually } from "./helpers/channels.ts";
import { type ChildServer, loginAt, spawnServer } from "./helpers/child_server.ts";

/** A test minute: inatividade 5 is then 10 s, enough to kill and restart before it is due. */
const MINUTE = 2000;
const CLOSE_TEXT = "Encerramos este atendimento por falta de resposta.";

Deno.test("auto-close armed before a SIGKILL fires once after the restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-timers-restart-" });
  const start = (readyText: string) =>
    spawnServer({
      kvPath: `${dir}/store.kv`,
      dataDir: `${dir}/media`,
      readyText,
      env: { BALCAO_TIMER_MINUTE_MS: String(MINUTE) },
    });
  let child: ChildServer | undefined = await start("/simulator");
  try {
    const { client: admin, userId: adminId } = await loginAt(child.url);
    const conn = (await admin.get("/whatsapp")).body.find((w: { name: string }) => w.name === "WhatsApp Demo");
    const saved = await admin.put(`/whatsapp/${conn.id}`, { ...conn, inatividade: 5, closeMessage: CLOSE_TEXT });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));

    const from = "5511990001234";
    assert.equal((await admin.post(`/simulator/${conn.id}/inbound`, { from, name: "Rita", body: "Oi" })).status, 200);
    const ticket = await eventually(async () => {
      const list = (await admin.get("/tickets?status=pending&showAll=true&limit=1000")).body.tickets as { id: number; contact: { number: string } }[];
      return list.find((t) => t.contact.number === from);
    }, 15_000, "the customer's ticket");
    const accepted = await admin.put(`/tickets/${ticket.id}`, { status: "open", userId: adminId });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const asked = await admin.post(`/messages/${ticket.id}`, { body: "Ainda precisa de ajuda?" });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    const askedAt = Date.parse(asked.body.message.createdAt);
    const due = askedAt + 5 * MINUTE;

    const killedUrl = child.url;
    assert.equal((await child.kill()).signal, "SIGKILL");
    assert.ok(Date.now() < due, "killed before the auto-close was due");
    assert.equal((await fetch(`${killedUrl}/health`).catch(() => null)), null, "the server is gone");

    child = await start("running at");
    const { client: again } = await loginAt(child.url);
    const closed = await eventually(async () => {
      const t = (await again.get(`/tickets/${ticket.id}`)).body as { status: string; closedAt: string };
      return t.status === "closed" ? t : undefined;
    }, 60_000, "the auto-close after the restart");
    assert.ok(Date.parse(closed.closedAt) >= due, `closed ${due - Date.parse(closed.closedAt)} ms early`);

    // Exactly once: one close message, one close note, even after more time passes.
    await eventually(async () => {
      const page = (await again.get(`/messages/${ticket.id}`)).body.messages as { body: string }[];
      return page.some((m) => m.body === CLOSE_TEXT) || undefined;
    }, 15_000, "the close message");
    await new Promise((resolve) => setTimeout(resolve, 3 * MINUTE));
    const page = (await again.get(`/messages/${ticket.id}`)).body.messages as { body: string }[];
    assert.equal(page.filter((m) => m.body === CLOSE_TEXT).length, 1);
    const notes = (await again.get(`/tickets/${ticket.id}/tracking`)).body.tracking as { action: string }[];
    assert.equal(notes.filter((n) => n.action === "close").length, 1);
    assert.equal((await again.get(`/tickets/${ticket.id}`)).body.status, "closed");
  } finally {
    await child?.kill();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
