/** No lost updates: resuming after a reconnect replays what was missed, or asks to resync. */
import assert from "node:assert/strict";
import type { BusEvent } from "../domain/events.ts";
import type { TestServer } from "./helpers/server.ts";
import { isEvent, markerEvent, type SocketPool, type WsClient, withSockets } from "./helpers/ws.ts";

/** Waits until the socket saw its own user go online (the presence write is asynchronous). */
async function seenOnline(ws: WsClient, companyId: number): Promise<void> {
  const { userId } = await ws.hello();
  await ws.event(`company-${companyId}-user`, (d) => {
    const user = d.user as { id?: number; online?: boolean } | undefined;
    return user?.id === userId && user.online === true;
  });
}

/** The client's rule: the greatest seq of an event, a ping, or the hello. */
function lastSeqOf(ws: WsClient): number {
  let seq = 0;
  for (const f of ws.frames) {
    if (isEvent(f) || f.type === "hello" || f.type === "ping" || f.type === "resumed") {
      seq = Math.max(seq, f.seq);
    }
  }
  return seq;
}

/** The admin connects, is seen online and disconnects: its token and the last seq it saw. */
async function adminWentAway(server: TestServer, pool: SocketPool): Promise<{ token: string; lastSeq: number }> {
  const token = (await server.login("admin@demo.local")).token!;
  const first = await pool.connect(token);
  await seenOnline(first, server.demo!.companyId);
  const lastSeq = lastSeqOf(first);
  await first.close();
  return { token, lastSeq };
}

function ticketEvent(companyId: number, id: number, queueId: number): BusEvent {
  return {
    companyId,
    channel: `company-${companyId}-ticket`,
    data: { action: "update", ticket: { id } },
    scope: { kind: "ticket", ticketId: id, queueId, userId: null, isGroup: false, status: "open" },
  };
}

/**
 * 20 actions the agent may see (10 setting changes through the API, 10 ticket events of its
 * queue), interleaved with 10 ticket events of a queue it may not see.
 */
async function twentyActions(server: TestServer): Promise<string[]> {
  const D = server.demo!.companyId;
  const [suporte, vendas] = server.demo!.queueIds;
  const admin = await server.login("admin@demo.local");
  const expected: string[] = [];
  for (let i = 0; i < 10; i++) {
    const value = i % 2 === 0 ? "enabled" : "disabled";
    assert.equal((await admin.put("/settings/viewgroups", { value })).status, 200);
    expected.push(`settings:${value}`);
    server.deps.bus.publish(ticketEvent(D, 100 + i, vendas));
    server.deps.bus.publish(ticketEvent(D, 200 + i, suporte));
    expected.push(`ticket:${200 + i}`);
  }
  return expected;
}

function label(data: unknown): string {
  const d = data as { setting?: { value: string }; ticket?: { id: number } };
  return d.setting ? `settings:${d.setting.value}` : `ticket:${d.ticket?.id}`;
}

Deno.test("GET /ws?lastSeq= replays the 20 events missed while disconnected, in order", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const token = (await server.login("agent@demo.local")).token!;
    const keepAlive = await pool.connect((await server.login("admin@demo.local")).token!);
    const first = await pool.connect(token);
    await seenOnline(first, D);
    server.deps.bus.publish(markerEvent(D, "before"));
    await first.event(`company-${D}-test-marker`);
    const lastSeq = lastSeqOf(first);
    await first.close();

    const expected = await twentyActions(server);
    await keepAlive.until((f) => isEvent(f) && (f.data as { ticket?: { id: number } }).ticket?.id === 209);

    const again = pool.open({ token, lastSeq });
    const resumed = await again.control("resumed");
    assert.equal(resumed.count, 20);
    const replayed = again.events().filter((e) => !e.channel.endsWith("-user"));
    assert.deepEqual(replayed.map((e) => label(e.data)), expected);
    const seqs = again.events().map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
    assert.ok(seqs[0] > lastSeq && seqs.at(-1)! <= resumed.seq);
    const hello = again.frames.findIndex((f) => !isEvent(f) && f.type === "hello");
    assert.equal(hello, 0, "hello comes first");

    // Live delivery goes on after the replay.
    server.deps.bus.publish(markerEvent(D, "after"));
    const live = await again.event(`company-${D}-test-marker`, (d) => d.tag === "after");
    assert.equal(live.seq, server.deps.hub.currentSeq(D));
  });
});

Deno.test("Hub replays on a resume frame without repeating what was sent live", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const { token, lastSeq } = await adminWentAway(server, pool);
    for (let i = 0; i < 3; i++) server.deps.bus.publish(markerEvent(D, `missed-${i}`));
    const again = await pool.connect(token);
    server.deps.bus.publish(markerEvent(D, "live"));
    await again.event(`company-${D}-test-marker`, (d) => d.tag === "live");
    again.send({ type: "resume", lastSeq });
    const resumed = await again.control("resumed");
    const tags = again.eventsOn(`company-${D}-test-marker`).map((e) => (e.data as { tag: string }).tag);
    assert.deepEqual(tags, ["live", "missed-0", "missed-1", "missed-2"]);
    assert.equal(resumed.count, 3);
  });
});

Deno.test("Hub answers resync when the backlog no longer covers lastSeq, or lastSeq is not its own", async () => {
  await withSockets(async (server, pool) => {
    server.deps.hub.configure({ backlogMax: 5 });
    const D = server.demo!.companyId;
    const { token, lastSeq } = await adminWentAway(server, pool);
    for (let i = 0; i < 10; i++) server.deps.bus.publish(markerEvent(D, `m${i}`));

    const behind = pool.open({ token, lastSeq });
    const resync = await behind.control("resync");
    assert.equal(resync.seq, (await behind.hello()).seq);
    assert.equal(behind.events().filter((e) => !e.channel.endsWith("-user")).length, 0);

    const foreign = pool.open({ token, lastSeq: 17 }); // from an earlier process
    await foreign.control("resync");
    const future = pool.open({ token, lastSeq: server.deps.hub.currentSeq(D)! + 1000 });
    await future.control("resync");

    const current = pool.open({ token, lastSeq: server.deps.hub.currentSeq(D) });
    assert.equal((await current.control("resumed")).count, 0);

    const covered = pool.open({ token, lastSeq: server.deps.hub.currentSeq(D)! - 3 });
    assert.equal((await covered.control("resumed")).count, 3);
  });
});

Deno.test("Hub drops backlog entries older than backlogMaxAgeMs, then resyncs", async () => {
  await withSockets(async (server, pool) => {
    server.deps.hub.configure({ backlogMaxAgeMs: 50, pingIntervalMs: 60 });
    const D = server.demo!.companyId;
    const token = (await server.login("admin@demo.local")).token!;
    const watcher = await pool.connect(token);
    const lastSeq = lastSeqOf(watcher);
    server.deps.bus.publish(markerEvent(D, "old"));
    // Two pings later the entry is past its age and trimmed.
    const pingsBefore = watcher.frames.length;
    await watcher.until((f) => !isEvent(f) && f.type === "ping", 10_000, pingsBefore);
    const next = watcher.frames.length;
    await watcher.until((f) => !isEvent(f) && f.type === "ping", 10_000, next);
    const late = pool.open({ token, lastSeq });
    await late.control("resync");
  });
});
