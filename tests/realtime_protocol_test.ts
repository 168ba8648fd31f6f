/** GET /ws protocol: authentication and close codes, formats, ping/pong, malformed frames. */
import assert from "node:assert/strict";
import { CLOSE } from "../domain/realtime.ts";
import { startTestServer, withServer } from "./helpers/server.ts";
import { fixtures, isEvent, markerEvent, SocketPool } from "./helpers/ws.ts";

Deno.test("GET /ws authenticates with ?token= and greets with hello and the company seq", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const admin = await server.login("admin@demo.local");
      const ws = await pool.connect(admin.token!);
      const hello = await ws.hello();
      const companyId = server.demo!.companyId;
      assert.equal(hello.companyId, companyId);
      // The socket's own presence write is the next event of the company.
      const online = await ws.event(`company-${companyId}-user`);
      assert.equal(online.seq, hello.seq + 1);
      server.deps.bus.publish(markerEvent(companyId, "one"));
      const frame = await ws.event(`company-${companyId}-test-marker`);
      assert.equal(frame.seq, online.seq + 1);
      assert.equal(frame.seq, server.deps.hub.currentSeq(companyId));
      assert.deepEqual(frame.data, { tag: "one" });
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("GET /ws accepts the token in a first auth frame and queues frames sent meanwhile", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const agent = await server.login("agent@demo.local");
      const ws = pool.open({ authFrame: agent.token! });
      await ws.opened;
      ws.send({ type: "joinNotification" });
      await ws.hello();
      const companyId = server.demo!.companyId;
      server.deps.bus.publish({
        companyId,
        channel: `company-${companyId}-appMessage`,
        data: { action: "create", message: { id: 1 } },
        scope: { kind: "ticket", ticketId: 9, queueId: null, userId: null, isGroup: false, status: "open" },
      });
      await ws.event(`company-${companyId}-appMessage`);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("GET /ws closes bad tokens with 4001 and expired with 4003; billing-only sockets are accepted", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
      const agent = { id: agentId, companyId: server.demo!.companyId };
      const garbage = pool.open({ token: "not-a-token" });
      assert.equal((await garbage.closed).code, CLOSE.invalidToken);

      const expired = pool.open({ token: await fixtures.token(server, agent, { ttl: -60 }) });
      assert.equal((await expired.closed).code, CLOSE.expiredToken);

      // A billing-only token is accepted for payment events only (#21; tests/invoices_test.ts).
      const billing = pool.open({ token: await fixtures.token(server, agent, { scope: "billing" }) });
      await billing.hello();

      const wrongCompany = pool.open({ token: await fixtures.token(server, { id: agentId, companyId: 999 }) });
      assert.equal((await wrongCompany.closed).code, CLOSE.invalidToken);

      const badFrame = pool.open({ authFrame: "still-not-a-token" });
      assert.equal((await badFrame.closed).code, CLOSE.invalidToken);

      const lapsed = await fixtures.company(server, "Lapsed", Date.now() - 60 * 86_400_000);
      const lapsedUser = await fixtures.user(server, { companyId: lapsed.id, email: "l@lapsed.local" });
      const lapsedWs = pool.open({ token: await fixtures.token(server, lapsedUser) });
      await lapsedWs.hello();
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("GET /ws closes a socket that sends another frame before auth, or none in time", async () => {
  await withServer(async (server) => {
    server.deps.hub.configure({ authTimeoutMs: 200 });
    const pool = new SocketPool(server.url);
    try {
      const early = pool.open({});
      await early.opened;
      early.send({ type: "joinNotification" });
      assert.equal((await early.closed).code, CLOSE.invalidToken);
      const silent = pool.open({});
      assert.equal((await silent.closed).code, CLOSE.invalidToken);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("GET /ws without upgrade is 426; a bad query is 400", async () => {
  await withServer(async (server) => {
    const plain = await server.client().get("/ws");
    assert.equal(plain.status, 426);
    assert.equal(plain.body.error, "ERR_UPGRADE_REQUIRED");
    const bad = await fetch(`${server.url}/ws?format=xml`, { headers: { upgrade: "websocket" } });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  });
});

Deno.test("GET /ws?format=msgpack speaks binary msgpack both ways", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const admin = await server.login("admin@demo.local");
      const ws = await pool.connect(admin.token!, { format: "msgpack" });
      ws.send({ type: "joinChatBox", ticketId: 5 });
      ws.send({ type: "resume", lastSeq: (await ws.hello()).seq });
      await ws.control("resumed");
      const companyId = server.demo!.companyId;
      server.deps.bus.publish({
        companyId,
        channel: `company-${companyId}-ticket`,
        data: { action: "update", ticket: { id: 5, status: "open", tags: ["a"] } },
        scope: { kind: "ticket", ticketId: 5, queueId: null, userId: null, isGroup: false, status: "open" },
      });
      const frame = await ws.event(`company-${companyId}-ticket`);
      assert.deepEqual(frame.data, { action: "update", ticket: { id: 5, status: "open", tags: ["a"] } });
      assert.equal(ws.binaryCount, ws.messages);
      assert.ok(ws.binaryCount >= 3);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("GET /ws answers a malformed frame with an error frame and keeps the socket", async () => {
  await withServer(async (server) => {
    const pool = new SocketPool(server.url);
    try {
      const admin = await server.login("admin@demo.local");
      const ws = await pool.connect(admin.token!);
      ws.sendRaw("{not json");
      ws.send({ type: "joinTickets" });
      await ws.until((f) => !isEvent(f) && f.type === "error");
      assert.equal(ws.frames.filter((f) => !isEvent(f) && f.type === "error").length >= 1, true);
      assert.ok(ws.isOpen);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("Hub pings every interval and drops a peer silent for two intervals", async () => {
  await withServer(async (server) => {
    server.deps.hub.configure({ pingIntervalMs: 100 });
    const pool = new SocketPool(server.url);
    try {
      const admin = await server.login("admin@demo.local");
      const alive = await pool.connect(admin.token!);
      const silent = await pool.connect(admin.token!, { autoPong: false });
      assert.equal((await silent.closed).code, CLOSE.pingTimeout);
      const pings = alive.frames.filter((f) => !isEvent(f) && f.type === "ping");
      assert.ok(pings.length >= 2, `alive socket got ${pings.length} pings`);
      assert.ok(alive.isOpen);
    } finally {
      await pool.closeAll();
    }
  });
});

for (const format of ["json", "msgpack"] as const) {
  Deno.test(`Hub batches a burst of events into one ${format} message, in seq order`, async () => {
    await withServer(async (server) => {
      const pool = new SocketPool(server.url);
      try {
        const admin = await server.login("admin@demo.local");
        const ws = await pool.connect(admin.token!, { format });
        const companyId = server.demo!.companyId;
        await ws.event(`company-${companyId}-user`); // own presence write, before the burst
        for (let i = 0; i < 5; i++) server.deps.bus.publish(markerEvent(companyId, `burst-${i}`));
        await ws.event(`company-${companyId}-test-marker`, (d) => d.tag === "burst-4");
        assert.ok(ws.batches.includes(5), `batches ${JSON.stringify(ws.batches)}`);
        const burst = ws.eventsOn(`company-${companyId}-test-marker`);
        assert.deepEqual(burst.map((e) => (e.data as { tag: string }).tag), [0, 1, 2, 3, 4].map((i) => `burst-${i}`));
        assert.deepEqual(burst.map((e) => e.seq - burst[0].seq), [0, 1, 2, 3, 4]);
      } finally {
        await pool.closeAll();
      }
    });
  });
}

Deno.test("Hub sends the first event after a quiet spell at once and a steady stream as one message per flush window", async () => {
  await withServer(async (server) => {
    server.deps.hub.configure({ flushWindowMs: 400 });
    const pool = new SocketPool(server.url);
    try {
      const admin = await server.login("admin@demo.local");
      const ws = await pool.connect(admin.token!);
      const companyId = server.demo!.companyId;
      await ws.event(`company-${companyId}-user`); // own presence write
      await new Promise((r) => setTimeout(r, 450)); // a quiet spell longer than the window
      const started = performance.now();
      server.deps.bus.publish(markerEvent(companyId, "first"));
      await ws.event(`company-${companyId}-test-marker`, (d) => d.tag === "first");
      assert.ok(performance.now() - started < 300, "the first event did not wait for the window");
      const before = ws.batches.length;
      for (let i = 0; i < 3; i++) {
        server.deps.bus.publish(markerEvent(companyId, `stream-${i}`));
        await new Promise((r) => setTimeout(r, 20));
      }
      await ws.event(`company-${companyId}-test-marker`, (d) => d.tag === "stream-2");
      assert.deepEqual(ws.batches.slice(before), [3], `batches ${JSON.stringify(ws.batches)}`);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("Hub.close() closes every socket with 1001 so clients reconnect and resume", async () => {
  const server = await startTestServer();
  const pool = new SocketPool(server.url);
  let closed = false;
  try {
    const admin = await server.login("admin@demo.local");
    const ws = await pool.connect(admin.token!);
    await server.close();
    closed = true;
    assert.equal((await ws.closed).code, CLOSE.goingAway);
  } finally {
    await pool.closeAll();
    if (!closed) await server.close();
  }
});
