/** Presence: sockets and userStatus keep users' online flag; offline after a grace period. */
import assert from "node:assert/strict";
import { getUser } from "../actors/platform/lookup.ts";
import { PLATFORM, users } from "../actors/platform/collections.ts";
import { withServer } from "./helpers/server.ts";
import { SocketPool, type WsClient } from "./helpers/ws.ts";

/** Waits for a `company-{id}-user` event saying `userId` is `online`. */
function presence(ws: WsClient, companyId: number, userId: number, online: boolean) {
  return ws.event(`company-${companyId}-user`, (d) => {
    const user = d.user as { id?: number; online?: boolean } | undefined;
    return user?.id === userId && user.online === online;
  });
}

const GRACE = 200;

Deno.test("Hub marks a user online with its first socket and offline after the grace period", async () => {
  await withServer(async (server) => {
    server.deps.hub.configure({ presenceGraceMs: GRACE });
    const pool = new SocketPool(server.url);
    try {
      const D = server.demo!.companyId;
      const admin = await pool.connect((await server.login("admin@demo.local")).token!);
      const agentToken = (await server.login("agent@demo.local")).token!;
      const tab1 = await pool.connect(agentToken);
      const agentId = (await tab1.hello()).userId;
      await presence(admin, D, agentId, true);
      assert.equal((await getUser(server.deps.system, agentId))?.online, true);
      assert.ok(server.deps.hub.onlineUserIds(D).includes(agentId));

      // A second tab and its closing change nothing; closing the last one does, after GRACE.
      const tab2 = await pool.connect(agentToken);
      await tab2.close();
      await tab1.close();
      const closedAt = Date.now();
      assert.ok(server.deps.hub.onlineUserIds(D).includes(agentId), "online during the grace period");
      await presence(admin, D, agentId, false);
      assert.ok(Date.now() - closedAt >= GRACE - 20, "not before the grace period");
      assert.equal((await getUser(server.deps.system, agentId))?.online, false);
      assert.ok(!server.deps.hub.onlineUserIds(D).includes(agentId));
      const flips = admin.eventsOn(`company-${D}-user`).filter((e) => (e.data as { user: { id: number } }).user.id === agentId);
      assert.equal(flips.length, 2, "one write online, one offline");
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("Hub keeps a user online when it reconnects within the grace period", async () => {
  await withServer(async (server) => {
    server.deps.hub.configure({ presenceGraceMs: GRACE });
    const pool = new SocketPool(server.url);
    try {
      const D = server.demo!.companyId;
      const token = (await server.login("agent@demo.local")).token!;
      const first = await pool.connect(token);
      const agentId = (await first.hello()).userId;
      await presence(first, D, agentId, true);
      await first.close();
      const second = await pool.connect(token);
      // Bounded wait past the grace period: nothing may flip the flag meanwhile.
      await new Promise((resolve) => setTimeout(resolve, GRACE * 3));
      assert.equal((await getUser(server.deps.system, agentId))?.online, true);
      assert.equal(second.eventsOn(`company-${D}-user`).length, 0);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("userStatus offline stops a tab counting; online counts it again", async () => {
  await withServer(async (server) => {
    server.deps.hub.configure({ presenceGraceMs: GRACE });
    const pool = new SocketPool(server.url);
    try {
      const D = server.demo!.companyId;
      const tab = await pool.connect((await server.login("agent@demo.local")).token!);
      const agentId = (await tab.hello()).userId;
      await presence(tab, D, agentId, true);
      tab.send({ type: "userStatus", status: "offline" });
      await presence(tab, D, agentId, false);
      tab.send({ type: "userStatus" });
      const back = tab.frames.length;
      await tab.until((f) => "channel" in f && (f.data as { user?: { online?: boolean } }).user?.online === true, 10_000, back);
      assert.deepEqual(server.deps.hub.onlineUserIds(D), [agentId]);
    } finally {
      await pool.closeAll();
    }
  });
});

Deno.test("Hub.start() turns off online flags left by an earlier process", async () => {
  await withServer(async (server) => {
    const D = server.demo!.companyId;
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    await users.in(server.deps.system, PLATFORM).update(
      agentId,
      (old, now) => ({ ...old, online: true, updatedAt: now }),
      () => new Error("no agent"),
    );
    server.deps.hub.configure({ presenceGraceMs: 50 });
    const off = Promise.withResolvers<void>();
    const stop = server.deps.bus.subscribe((e) => {
      const user = (e.data as { user?: { id: number; online: boolean } }).user;
      if (e.channel === `company-${D}-user` && user?.id === agentId && !user.online) off.resolve();
    });
    try {
      await server.deps.hub.start();
      assert.ok(server.deps.hub.onlineUserIds(D).includes(agentId));
      await off.promise;
      assert.equal((await getUser(server.deps.system, agentId))?.online, false);
    } finally {
      stop();
    }
  });
});
