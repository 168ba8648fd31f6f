import assert from "node:assert/strict";
import { rings } from "./notification_rule.ts";

const away = { path: "/contacts", visible: true };
const event = (ticket: { userId: number | null; uuid?: string }, fromMe = false) => ({
  action: "create",
  message: { fromMe, ticketId: 1 },
  ticket: { id: 1, uuid: "u-1", ...ticket },
});

Deno.test("rings() sounds for a customer's message in my ticket or in one nobody holds", () => {
  assert.equal(rings(7, event({ userId: 7 }), away), true);
  assert.equal(rings(7, event({ userId: null }), away), true);
});

Deno.test("rings() stays silent for another agent's conversation, the company's own messages and updates", () => {
  assert.equal(rings(7, event({ userId: 8 }), away), false);
  assert.equal(rings(7, event({ userId: 7 }, true), away), false);
  assert.equal(rings(7, { ...event({ userId: 7 }), action: "update" }, away), false);
});

Deno.test("rings() stays silent for the conversation on screen, not when the tab is hidden", () => {
  assert.equal(rings(7, event({ userId: 7 }), { path: "/tickets/u-1", visible: true }), false);
  assert.equal(rings(7, event({ userId: 7 }), { path: "/tickets/u-1", visible: false }), true);
  assert.equal(rings(7, event({ userId: 7 }), { path: "/tickets/u-2", visible: true }), true);
});
