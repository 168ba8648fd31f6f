/**
 * A transition's effects ride in its own commit (issue #39, domain/ticket_effects.ts): the
 * desk writes the messages the change owes the customer as an intent in the transition's
 * atomic, and the runner applies each step once. A stop between the transition and the send
 * (here: the desk asked directly, as if the process stopped before the handler applied the
 * intent) only delays the greeting: the intent's retry timer brings it back, on the same
 * process or the next one, and a step applied again sends nothing twice.
 */
import assert from "node:assert/strict";
import { deskOf, deskState } from "../actors/tickets/mod.ts";
import { effectPrefix } from "../actors/tickets/keys.ts";
import { companySettings } from "../actors/platform/lookup.ts";
import type { Principal } from "../domain/permissions.ts";
import { applyEffects } from "../server/usecases/ticket_effects.ts";
import { freshNumber, inboundText, receive } from "./helpers/messages.ts";
import { type Client, startTestServer, type TestServer, withServer } from "./helpers/server.ts";
import { waitFor } from "../actors/_runtime/testing.ts";

const GREETING = /^Olá \*.*\*, meu nome é \*Ana Admin\*/;

/** Turns the greeting on accept on (spec 000 §4 sendGreetingAccepted). */
async function greetOnAccept(admin: Client): Promise<void> {
  const r = await admin.put("/settings/sendGreetingAccepted", { value: "enabled" });
  assert.equal(r.status, 200, JSON.stringify(r.body));
}

/** The admin as a principal, and the accept of `ticketId` asked of the desk directly. */
async function acceptAtDesk(server: TestServer, ticketId: number) {
  const companyId = server.demo!.companyId;
  const id = server.demo!.logins.find((l) => l.email === "admin@demo.local")!.id;
  const who: Principal = { id, companyId, profile: "admin", super: false, queueIds: [] };
  const settings = await companySettings(server.deps.system, companyId);
  return await deskOf(server.deps.system, companyId).ask("update", { id: ticketId, body: { status: "open", userId: id }, who, settings });
}

async function greetings(admin: Client, ticketId: number): Promise<number> {
  const messages = (await admin.get(`/messages/${ticketId}`)).body.messages as { body: string; fromMe: boolean }[];
  return messages.filter((m) => m.fromMe && GREETING.test(m.body)).length;
}

Deno.test("an accept's greeting left unsent by a stop goes out once when its intent comes back, and again sends nothing", async () => {
  await withServer(async (server) => {
    const admin = await server.login("admin@demo.local");
    await greetOnAccept(admin);
    const { ticketId } = await receive(server, inboundText(freshNumber(), "Bom dia"));
    const reply = await acceptAtDesk(server, ticketId);
    assert.ok(reply.intent, "the accept wrote an intent");
    assert.deepEqual(reply.intent.steps, [{ kind: "greeting" }]);
    // The transition's own commit carried its tracking note.
    const tracking = (await admin.get(`/tickets/${ticketId}/tracking`)).body.tracking as { action: string }[];
    assert.deepEqual(tracking.map((n) => n.action), ["accept"]);
    assert.equal(await greetings(admin, ticketId), 0, "not sent by the desk itself");

    // The retry timer (half a test minute) brings it back.
    await waitFor(async () => await greetings(admin, ticketId) === 1, "the greeting", 10_000);
    const companyId = server.demo!.companyId;
    await waitFor(async () => !(await deskState(server.deps.system, companyId)).intents.has(reply.intent!.id), "the intent done");
    assert.deepEqual(await Array.fromAsync(server.deps.kv.list({ prefix: effectPrefix(companyId) })), []);

    // Delivered again (a slow run that overlapped the retry): nothing more is sent.
    await applyEffects(server.deps, reply.intent);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await greetings(admin, ticketId), 1);
  }, { timerMinuteMs: 400 });
});

Deno.test("an intent left by a process that stopped is applied once by the next one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ticket_effects_" });
  const config = { kvPath: `${dir}/store.kv`, dataDir: `${dir}/media`, timerMinuteMs: 1000 };
  try {
    const first = await startTestServer({ ...config, demo: true });
    let ticketId = 0;
    try {
      const admin = await first.login("admin@demo.local");
      await greetOnAccept(admin);
      ticketId = (await receive(first, inboundText(freshNumber(), "Boa tarde"))).ticketId;
      const reply = await acceptAtDesk(first, ticketId);
      assert.ok(reply.intent);
      assert.equal(await greetings(admin, ticketId), 0);
    } finally {
      await first.close(); // before the intent's retry (half a second)
    }
    const second = await startTestServer({ ...config, demo: false });
    try {
      const admin = await second.login("admin@demo.local");
      await waitFor(async () => await greetings(admin, ticketId) === 1, "the greeting after the restart", 10_000);
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(await greetings(admin, ticketId), 1, "sent once");
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
