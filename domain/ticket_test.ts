import assert from "node:assert/strict";
import { pendingTicket } from "./ticket_fixture.ts";
import { AppError } from "./errors.ts";
import type { Principal } from "./permissions.ts";
import {
  buildTicket,
  decide,
  NO_PERMISSION,
  OTHER_SECTOR,
  RATING_REQUIRED,
  residentTicket,
  type Ticket,
  type TicketSettings,
} from "./ticket.ts";
import { commandsForUpdate } from "./ticket_input.ts";

const NOW = 1_700_000_000_000;
const admin: Principal = { id: 1, companyId: 1, profile: "admin", super: false, queueIds: [] };
const supervisor: Principal = { id: 2, companyId: 1, profile: "supervisor", super: false, queueIds: [] };
const agent: Principal = { id: 3, companyId: 1, profile: "user", super: false, queueIds: [10] };
const other: Principal = { id: 4, companyId: 1, profile: "user", super: false, queueIds: [10] };
const none: TicketSettings = {};

function ticket(fields: Partial<Ticket> = {}): Ticket {
  return pendingTicket(NOW - 1000, fields);
}

function refused(fn: () => unknown, code: string, status: number, message?: string) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof AppError);
    assert.equal(e.code, code);
    assert.equal(e.status, status);
    if (message) assert.equal(e.message, message);
    return true;
  });
}

Deno.test("decide() create opens the ticket for the user with its queue", () => {
  const { ticket: t } = decide(null, {
    type: "create",
    id: 1,
    uuid: "x",
    companyId: 1,
    contactId: 5,
    whatsappId: 1,
    queueId: 10,
    userId: null,
    status: "open",
    isGroup: false,
    channel: "whatsapp",
  }, agent, none, NOW);
  assert.equal(t!.status, "open");
  assert.equal(t!.userId, agent.id);
  assert.equal(t!.queueId, 10);
  assert.equal(t!.acceptedAt, NOW);
});

Deno.test("decide() create refuses a plain user a queue outside its queues", () => {
  refused(() =>
    decide(null, {
      type: "create",
      id: 1,
      uuid: "x",
      companyId: 1,
      contactId: 5,
      whatsappId: 1,
      queueId: 99,
      userId: null,
      status: "open",
      isGroup: false,
      channel: "whatsapp",
    }, agent, none, NOW), "ERR_NO_PERMISSION", 403, OTHER_SECTOR);
});

Deno.test("decide() accept moves pending to open for the current user", async (t) => {
  await t.step("plain user of the queue", () => {
    const d = decide(ticket({ unreadMessages: 3 }), { type: "accept" }, agent, none, NOW);
    assert.equal(d.ticket!.status, "open");
    assert.equal(d.ticket!.userId, agent.id);
    assert.equal(d.ticket!.unreadMessages, 0);
    assert.equal(d.ticket!.acceptedAt, NOW);
    assert.deepEqual(d.effects, []);
  });
  await t.step("greeting when sendGreetingAccepted is on", () => {
    const d = decide(ticket(), { type: "accept" }, agent, { sendGreetingAccepted: "enabled" }, NOW);
    assert.deepEqual(d.effects, [{ type: "greeting" }]);
  });
  await t.step("queue outside the user's queues is refused", () => {
    refused(
      () => decide(ticket({ queueId: 11 }), { type: "accept" }, agent, none, NOW),
      "ERR_NO_PERMISSION",
      403,
      OTHER_SECTOR,
    );
  });
  await t.step("a ticket without queue is open to everyone", () => {
    const d = decide(ticket({ queueId: null }), { type: "accept" }, agent, none, NOW);
    assert.equal(d.ticket!.userId, agent.id);
  });
  await t.step("a plain user cannot accept for someone else; a manager can", () => {
    refused(
      () => decide(ticket(), { type: "accept", userId: other.id }, agent, none, NOW),
      "ERR_NO_PERMISSION",
      403,
      NO_PERMISSION,
    );
    const d = decide(ticket(), { type: "accept", userId: other.id }, admin, none, NOW);
    assert.equal(d.ticket!.userId, other.id);
  });
  await t.step("an already accepted ticket is refused to others, kept for its owner", () => {
    const open = ticket({ status: "open", userId: other.id });
    refused(() => decide(open, { type: "accept" }, agent, none, NOW), "ERR_NO_PERMISSION", 403);
    refused(() => decide(open, { type: "accept" }, supervisor, none, NOW), "ERR_CONFLICT", 409);
    assert.equal(decide(open, { type: "accept" }, other, none, NOW).ticket, open);
  });
  await t.step("a group ticket of another user can be taken", () => {
    const group = ticket({ status: "open", userId: other.id, isGroup: true });
    const d = decide(group, { type: "accept" }, agent, { viewgroups: "enabled" }, NOW);
    assert.equal(d.ticket!.userId, agent.id);
  });
  await t.step("a closed ticket cannot be accepted", () => {
    refused(() => decide(ticket({ status: "closed" }), { type: "accept" }, admin, none, NOW), "ERR_CONFLICT", 409);
  });
});

Deno.test("decide() closePending closes a pending ticket only", () => {
  const d = decide(ticket(), { type: "closePending" }, agent, none, NOW);
  assert.equal(d.ticket!.status, "closed");
  assert.equal(d.ticket!.closedAt, NOW);
  assert.equal(d.ticket!.closedBy, agent.id, "the closer is kept: the report's Usuário names them (#41)");
  const resolved = decide(ticket({ status: "open", userId: 3 }), { type: "resolve" }, admin, none, NOW);
  assert.deepEqual([resolved.ticket!.userId, resolved.ticket!.closedBy], [3, admin.id]);
  const reopened = decide(resolved.ticket, { type: "reopen" }, admin, none, NOW);
  assert.equal(reopened.ticket!.closedBy, null);
  refused(
    () => decide(ticket({ status: "open", userId: 3 }), { type: "closePending" }, agent, none, NOW),
    "ERR_CONFLICT",
    409,
  );
});

Deno.test("decide() resolve closes an open ticket with farewell unless declined", async (t) => {
  const open = ticket({ status: "open", userId: agent.id });
  await t.step("farewell by default", () => {
    const d = decide(open, { type: "resolve" }, agent, none, NOW);
    assert.equal(d.ticket!.status, "closed");
    assert.equal(d.ticket!.userId, agent.id);
    assert.deepEqual(d.effects, [{ type: "farewell" }]);
  });
  await t.step("no farewell when sendFarewellMessage is false", () => {
    const d = decide(open, { type: "resolve", farewell: false }, agent, none, NOW);
    assert.deepEqual(d.effects, []);
  });
  await t.step("rating required when userRating is on", () => {
    refused(
      () => decide(open, { type: "resolve" }, agent, { userRating: "enabled" }, NOW),
      "ERR_VALIDATION",
      400,
      RATING_REQUIRED,
    );
    const d = decide(open, { type: "resolve", ratingId: 3 }, agent, { userRating: "enabled" }, NOW);
    assert.equal(d.ticket!.ratingId, 3);
    // The survey to send is the agent's choice; the customer's score comes later (actors/ratings).
    assert.deepEqual(d.effects, [{ type: "farewell" }, { type: "survey", ratingId: 3 }]);
    assert.equal(d.ticket!.rating, null);
    assert.equal(decide(open, { type: "resolve", rating: 4 }, agent, none, NOW).ticket!.rating, 4);
    refused(
      () => decide(open, { type: "resolve", rating: 9 }, agent, { userRating: "enabled" }, NOW),
      "ERR_VALIDATION",
      400,
      RATING_REQUIRED,
    );
  });
  await t.step("another user's ticket is refused to a plain user, allowed to a manager", () => {
    refused(() => decide(open, { type: "resolve" }, other, none, NOW), "ERR_NO_PERMISSION", 403, NO_PERMISSION);
    assert.equal(decide(open, { type: "resolve" }, supervisor, none, NOW).ticket!.status, "closed");
  });
  await t.step("a pending ticket is not resolved", () => {
    refused(() => decide(ticket(), { type: "resolve" }, agent, none, NOW), "ERR_CONFLICT", 409);
  });
});

Deno.test("decide() return puts an open ticket back in the queue without user", () => {
  const d = decide(ticket({ status: "open", userId: agent.id }), { type: "return" }, agent, none, NOW);
  assert.equal(d.ticket!.status, "pending");
  assert.equal(d.ticket!.userId, null);
  refused(() => decide(ticket(), { type: "return" }, agent, none, NOW), "ERR_CONFLICT", 409);
});

Deno.test("decide() transfer with a user stays open for that user, without goes pending", () => {
  const open = ticket({ status: "open", userId: agent.id });
  const toUser = decide(open, { type: "transfer", queueId: 11, userId: other.id }, agent, none, NOW);
  assert.equal(toUser.ticket!.status, "open");
  assert.equal(toUser.ticket!.userId, other.id);
  assert.equal(toUser.ticket!.queueId, 11);
  const toQueue = decide(open, { type: "transfer", queueId: 11, userId: null }, agent, none, NOW);
  assert.equal(toQueue.ticket!.status, "pending");
  assert.equal(toQueue.ticket!.userId, null);
  refused(
    () => decide(ticket({ status: "closed" }), { type: "transfer", queueId: 11, userId: null }, admin, none, NOW),
    "ERR_CONFLICT",
    409,
  );
});

Deno.test("decide() reopen opens a closed ticket for the user", () => {
  const closed = ticket({ status: "closed", userId: other.id, closedAt: NOW - 10 });
  const d = decide(closed, { type: "reopen" }, supervisor, none, NOW);
  assert.equal(d.ticket!.status, "open");
  assert.equal(d.ticket!.userId, supervisor.id);
  assert.equal(d.ticket!.closedAt, null);
  refused(() => decide(ticket(), { type: "reopen" }, admin, none, NOW), "ERR_CONFLICT", 409);
  refused(() => decide(closed, { type: "reopen" }, agent, none, NOW), "ERR_NO_PERMISSION", 403, OTHER_SECTOR);
  assert.equal(decide(closed, { type: "reopen" }, agent, { viewclosed: "enabled" }, NOW).ticket!.userId, agent.id);
});

Deno.test("decide() delete needs the deleteTicket permission", () => {
  assert.equal(decide(ticket(), { type: "delete" }, supervisor, none, NOW).ticket, null);
  refused(() => decide(ticket(), { type: "delete" }, agent, none, NOW), "ERR_NO_PERMISSION", 403);
});

Deno.test("decide() setUnread changes the counter without touching updatedAt", () => {
  const t = ticket();
  const d = decide(t, { type: "setUnread", unreadMessages: 1 }, agent, none, NOW);
  assert.equal(d.ticket!.unreadMessages, 1);
  assert.equal(d.ticket!.updatedAt, t.updatedAt);
});

Deno.test("commandsForUpdate() reads the action from the PUT body", () => {
  const pending = ticket();
  const open = ticket({ status: "open", userId: 3 });
  const closed = ticket({ status: "closed" });
  assert.deepEqual(commandsForUpdate(pending, { status: "open", userId: 3, queueId: 10 }), [
    { type: "accept", userId: 3 },
  ]);
  assert.deepEqual(commandsForUpdate(pending, { status: "closed" }), [{ type: "closePending" }]);
  assert.equal(commandsForUpdate(open, { status: "closed" })[0].type, "resolve");
  assert.deepEqual(commandsForUpdate(open, { status: "pending" }), [{ type: "return" }]);
  assert.deepEqual(commandsForUpdate(open, { return: true }), [{ type: "return" }]);
  assert.deepEqual(commandsForUpdate(open, { queueId: 11, userId: 4, status: "open" }), [
    { type: "transfer", queueId: 11, userId: 4 },
  ]);
  assert.deepEqual(commandsForUpdate(open, { queueId: 10, userId: null, status: "pending" }), [
    { type: "transfer", queueId: 10, userId: null },
  ]);
  assert.deepEqual(commandsForUpdate(closed, { status: "open" }), [{ type: "reopen", userId: undefined }]);
  assert.deepEqual(commandsForUpdate(open, { unreadMessages: 1 }), [
    { type: "setUnread", unreadMessages: 1 },
  ]);
  refused(() => commandsForUpdate(open, { userId: 4 }), "ERR_VALIDATION", 400);
});

Deno.test("residentTicket keeps every field of a stored record in the literal's order, sharing the empty tag list", () => {
  const built = { ...buildTicket({ id: 9, uuid: "u-9", companyId: 1, contactId: 3, whatsappId: 2, queueId: null, userId: null, status: "closed", isGroup: false, channel: "whatsapp" }, 1000), lastMessage: "oi", rating: 4 };
  const stored = JSON.parse(JSON.stringify(built)); // fields set one by one, strings copied
  const kept = residentTicket(stored);
  assert.deepEqual(kept, stored);
  assert.deepEqual(Object.keys(kept), Object.keys(built));
  assert.equal(kept.tagIds, residentTicket({ ...stored, id: 10 }).tagIds);
  assert.deepEqual(residentTicket({ ...stored, tagIds: [5, 6] }).tagIds, [5, 6]);
  assert.equal(residentTicket({ ...stored, status: "pending" }).status, "pending");
  assert.equal(residentTicket({ ...stored, status: "open", channel: "facebook" }).channel, "facebook");
});
