import assert from "node:assert/strict";
import type { BusEvent } from "../domain/events.ts";
import { moveTicketToQueue } from "../actors/tickets/mod.ts";
import { inboundTicket } from "./helpers/fixtures.ts";
import { withServer } from "./helpers/server.ts";

Deno.test("a ticket that changes queue publishes moved-to-queue to the new queue's audience", async () => {
  await withServer(async (server) => {
    const companyId = server.demo!.companyId;
    const [support, sales] = server.demo!.queueIds;
    const events: BusEvent[] = [];
    server.deps.bus.subscribe((e) => {
      if (e.channel === `company-${companyId}-ticket`) events.push(e);
    });
    const t = await inboundTicket(server, companyId, { queueId: null });
    events.length = 0;
    await moveTicketToQueue(server.deps.system, companyId, t.id, sales);
    const moved = events.find((e) => (e.data as { action: string }).action === "moved-to-queue");
    assert.ok(moved, "moved-to-queue published");
    const data = moved.data as { ticket: { id: number; queueId: number }; fromQueueId: number | null };
    assert.equal(data.ticket.id, t.id);
    assert.equal(data.fromQueueId, null);
    assert.equal((moved.scope as { queueId: number }).queueId, sales);

    // A transfer is a queue change too; changing nothing else publishes no move.
    const admin = await server.login("admin@demo.local");
    events.length = 0;
    await admin.put(`/tickets/${t.id}`, { queueId: support, userId: null });
    assert.ok(events.some((e) => (e.data as { action: string }).action === "moved-to-queue"));
    events.length = 0;
    await admin.put(`/tickets/${t.id}`, { unreadMessages: 1 });
    assert.ok(!events.some((e) => (e.data as { action: string }).action === "moved-to-queue"));
  });
});
