/**
 * Sockets do not outlive their token: logout and password changes close the user's sockets
 * with 4001, an access token's `exp` closes its socket with 4003 (refresh, then reconnect).
 */
import assert from "node:assert/strict";
import { CLOSE } from "../domain/realtime.ts";
import { fixtures, markerEvent, withSockets } from "./helpers/ws.ts";

Deno.test("Hub closes a user's sockets with 4001 on logout; other users and a fresh login stay", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const agent = await server.login("agent@demo.local");
    const admin = await server.login("admin@demo.local");
    const agentWs = await pool.connect(agent.token!);
    const adminWs = await pool.connect(admin.token!);
    assert.equal((await agent.delete("/auth/logout")).status, 200);
    assert.equal((await agentWs.closed).code, CLOSE.invalidToken);

    const again = await server.login("agent@demo.local");
    const fresh = await pool.connect(again.token!);
    server.deps.bus.publish(markerEvent(D, "after-logout"));
    for (const ws of [adminWs, fresh]) {
      assert.deepEqual((await ws.event(`company-${D}-test-marker`)).data, { tag: "after-logout" });
    }
  });
});

Deno.test("Hub closes a user's sockets with 4001 when an admin changes its password", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const user = await fixtures.user(server, { companyId: D, email: "pw@demo.local" });
    const ws = await pool.connect(await fixtures.token(server, user));
    const admin = await server.login("admin@demo.local");
    const changed = await admin.put(`/users/${user.id}`, { password: "outra-senha-1" });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await ws.closed).code, CLOSE.invalidToken);
  });
});

Deno.test("Hub closes a socket with 4003 when its access token expires, not before", async () => {
  await withSockets(async (server, pool) => {
    const D = server.demo!.companyId;
    const agentId = server.demo!.logins.find((l) => l.email === "agent@demo.local")!.id;
    const agent = { id: agentId, companyId: D };
    const started = Date.now();
    const shortLived = await pool.connect(await fixtures.token(server, agent, { ttl: 2 }));
    const longLived = await pool.connect(await fixtures.token(server, agent));
    assert.equal((await shortLived.closed).code, CLOSE.expiredToken);
    assert.ok(Date.now() - started >= 1000, "closed before its exp");
    server.deps.bus.publish(markerEvent(D, "after-expiry"));
    assert.deepEqual((await longLived.event(`company-${D}-test-marker`)).data, { tag: "after-expiry" });
  });
});
