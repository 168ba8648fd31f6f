/** Unit tests of the live contact edits' memory (contact_patch.ts `HeardContacts`). */
import assert from "node:assert/strict";
import { HeardContacts, withContact } from "./contact_patch.ts";
import type { TicketItem } from "./types.ts";

const ticket = (id: number, contactId: number, name: string): TicketItem =>
  ({ id, contactId, contact: { id: contactId, name, number: "5511900000000", profilePicUrl: "" } }) as unknown as TicketItem;

Deno.test("HeardContacts gives a ticket fetched before an edit the newest edit heard of its contact", () => {
  const heard = new HeardContacts(withContact);
  const stale = ticket(1, 7, "Antigo");
  assert.equal(heard.fresh(stale), stale, "nothing heard: the ticket as it came");
  heard.hear({ id: 7, name: "Novo", number: "5511900000000", profilePicUrl: "" });
  heard.hear({ id: 7, name: "Mais Novo", number: "5511900000000", profilePicUrl: "https://x/p.jpg" });
  const shown = heard.fresh(stale);
  assert.equal(shown.contact?.name, "Mais Novo");
  assert.equal(shown.contact?.profilePicUrl, "https://x/p.jpg");
  assert.equal(stale.contact?.name, "Antigo", "the fetched ticket itself is not changed");
  const other = ticket(2, 8, "Outro");
  assert.equal(heard.fresh(other), other, "another contact's ticket is untouched");
  const current = ticket(3, 7, "Mais Novo");
  current.contact!.profilePicUrl = "https://x/p.jpg";
  assert.equal(heard.fresh(current), current, "a ticket that already shows the edit stays the same object");
});
