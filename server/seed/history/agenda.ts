/**
 * The demo's calendar and internal chat: the team's chat of the last days (each message at its
 * time, by its author) and the messages scheduled for the coming week, made the day before the
 * end through the schedules' routes.
 */
import { findContactByNumber } from "../../../actors/contacts/mod.ts";
import type { ActorSystem } from "../../../actors/_runtime/system.ts";
import { type Customer, SCHEDULES, TEAM_CHAT } from "./cast.ts";
import type { Staff } from "./plan.ts";
import type { Replay } from "./replay.ts";
import type { StaffSession } from "./staff.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The team's chat, starting at `at` (a message every few minutes). */
export async function playTeamChat(replay: Replay, staff: Record<Staff, StaffSession>, at: number): Promise<void> {
  await replay.to(at);
  const chat = await staff.admin.call("POST", "/chats", {
    title: "Equipe Demo",
    users: [staff.supervisor.userId, staff.agent.userId],
  });
  let t = at;
  for (const [who, message] of TEAM_CHAT) {
    await replay.to(t += 7 * MINUTE);
    await staff[who].call("POST", `/chats/${chat.id}/messages`, { message });
  }
  // The supervisor and the admin read it; the agent has the last ones unread.
  await staff.supervisor.call("POST", `/chats/${chat.id}/read`, {});
  await staff.admin.call("POST", `/chats/${chat.id}/read`, {});
}

/** The schedules of the coming days, made by `by` the day before `end` (São Paulo hours). */
export async function playSchedules(
  replay: Replay,
  system: ActorSystem,
  companyId: number,
  by: StaffSession,
  customers: readonly Customer[],
  end: number,
): Promise<void> {
  await replay.to(end - DAY);
  const midnight = Math.floor((end - 3 * HOUR) / DAY) * DAY + 3 * HOUR;
  // For customers of the month (those who wrote), a few apart in the list.
  const known = [];
  for (const customer of customers) {
    const contact = await findContactByNumber(system, companyId, customer.number);
    if (contact) known.push(contact);
  }
  for (const [i, s] of SCHEDULES.entries()) {
    const contact = known[(i * 7) % known.length];
    if (!contact) continue;
    await by.call("POST", "/schedules", {
      body: s.body,
      contactId: contact.id,
      sendAt: new Date(midnight + s.days * DAY + s.hour * HOUR).toISOString(),
    });
  }
}
