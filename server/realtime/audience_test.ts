import assert from "node:assert/strict";
import type { EventScope } from "../../domain/events.ts";
import type { Principal } from "../../domain/permissions.ts";
import type { Profile } from "../../domain/user.ts";
import { canSeeTicket } from "../../domain/visibility.ts";
import { TicketAudience } from "./audience.ts";
import type { Member } from "./room.ts";

/** A small deterministic generator, so a failure reproduces. */
function rng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

Deno.test("TicketAudience.candidates() includes everyone canSeeTicket accepts, each once", () => {
  const random = rng(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const profiles: Profile[] = ["user", "user", "user", "supervisor", "admin"];
  const members = new Map<number, Member>();
  const audience = new TicketAudience();
  for (let id = 1; id <= 60; id++) {
    const queueIds = [1, 2, 3, 4].filter(() => random() < 0.3);
    const principal: Principal = { id, companyId: 1, profile: pick(profiles), super: false, queueIds };
    const member: Member = { principal, updatedAt: 0, conns: new Set() };
    members.set(id, member);
    audience.add(member);
  }
  // Move some members to other queues, as a user update would.
  for (const id of [3, 9, 27]) {
    const member = members.get(id)!;
    audience.remove(member);
    member.principal = { ...member.principal, queueIds: [pick([1, 2, 3, 4])] };
    audience.add(member);
  }
  const on = ["enabled", "disabled"];
  for (let round = 0; round < 2000; round++) {
    const settings = { viewclosed: pick(on), viewgroups: pick(on), allusersviewgroups: pick(on) };
    const scope: Extract<EventScope, { kind: "ticket" }> = {
      kind: "ticket",
      ticketId: round,
      queueId: pick([null, 1, 2, 3, 4, 5]),
      userId: pick([null, null, pick([...members.keys()]), 999]),
      isGroup: random() < 0.3,
      status: pick(["open", "pending", "closed"]),
    };
    const expected = [...members.values()].filter((m) => canSeeTicket(m.principal, scope, settings));
    const candidates = [...audience.candidates(scope, settings, members)];
    assert.equal(new Set(candidates).size, candidates.length, "no member twice");
    const chosen = new Set(candidates.filter((m) => canSeeTicket(m.principal, scope, settings)));
    assert.deepEqual([...chosen].map((m) => m.principal.id).sort((a, b) => a - b), expected.map((m) => m.principal.id));
  }
});
