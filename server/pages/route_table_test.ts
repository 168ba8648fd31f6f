import assert from "node:assert/strict";
import { matchPage } from "./route_table.ts";

Deno.test("matchPage() finds public, private, built and optional-parameter routes", () => {
  assert.equal(matchPage("/login")?.route.kind, "public");
  assert.equal(matchPage("/")?.route.kind, "private");
  assert.deepEqual(matchPage("/tickets")?.params, {});
  assert.deepEqual(matchPage("/tickets/abc-123")?.params, { ticketId: "abc-123" });
  assert.equal(matchPage("/tickets/abc")?.route.page, "tickets");
  assert.equal(matchPage("/kanban")?.route.page, "kanban");
  assert.deepEqual(matchPage("/contact-lists/7/contacts")?.params, { contactListId: "7" });
  assert.equal(matchPage("/simulator")?.route.page, "simulator");
});

Deno.test("matchPage() leaves API-only paths to the API", () => {
  for (const path of ["/auth/me", "/ticketsCount", "/tickets/1/extra", "/health", "/ws", "/simulator/1/chats"]) {
    assert.equal(matchPage(path), null, path);
  }
});
