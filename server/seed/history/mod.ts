/**
 * The demo's history (issue #37): thirty days of a company at work, written on a first start
 * with the demo so the dashboard, reports, kanban, ratings, campaign report, calendar, chats,
 * opportunities and invoices have something to show from the first login.
 *
 * Nothing is written around the product: the actor system's clock is replayed through the
 * past (replay.ts) and the days are played through the paths a live server takes then —
 * customers' messages through the connection's inbound path (bot menus, surveys), staff
 * clicks through the app's own routes as each user (staff.ts), the campaign's paced sends
 * and every other timer at their due times. So every screen agrees with every other: each
 * reads what the live paths recorded (tickets, messages, the dashboard's counters, tracking
 * notes, survey answers, campaign rows), nothing a rebuild had to guess.
 *
 * Deterministic: the script (plan.ts) comes from a fixed seed and the end time; only the
 * campaign engine's own dice (its wait between sends) differ between starts.
 */
import type { ReplayClock } from "../../../actors/_runtime/replay_clock.ts";
import { users } from "../../../actors/platform/collections.ts";
import { PLATFORM } from "../../../actors/platform/collections.ts";
import { queues as queuesOf } from "../../../actors/queues/collection.ts";
import { whatsapps } from "../../../actors/whatsapps/collection.ts";
import { byPriority } from "../../../domain/queue.ts";
import { createApp } from "../../app.ts";
import type { AppDeps } from "../../deps.ts";
import { customers, OPORTUNIDADES } from "./cast.ts";
import { playConversations, type Stage } from "./conversations.ts";
import { replayedPhones } from "./phones.ts";
import { planHistory, type Staff } from "./plan.ts";
import { Replay } from "./replay.ts";
import { type StaffSession, staffSession } from "./staff.ts";
import { playPaidInvoice } from "./billing.ts";
import { playFinishedCampaign, playScheduledCampaign } from "./campaigns.ts";
import { playSchedules, playTeamChat } from "./agenda.ts";

/** What the history wrote, and how long it took. */
export interface HistorySummary {
  from: number;
  to: number;
  conversations: number;
  tickets: number;
  ms: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `hour` o'clock, São Paulo time (UTC−3), of the day `ms` falls in there. */
function localTime(ms: number, hour: number): number {
  return Math.floor((ms - 3 * HOUR) / DAY) * DAY + 3 * HOUR + hour * HOUR;
}

/** Kanban lanes the sellers use beside the demo's "Lead quente" (demo_catalog.ts). */
const LANES = [
  { name: "Proposta enviada", color: "#0ea5e9", order: 2 },
  { name: "Negociação", color: "#a855f7", order: 3 },
] as const;

/** Writes the demo company's thirty days ending now; see the module doc. */
export async function seedDemoHistory(
  deps: AppDeps,
  companyId: number,
  clock: ReplayClock,
  end = Date.now(),
): Promise<HistorySummary> {
  const started = performance.now();
  const plan = planHistory(end);
  const replay = new Replay(deps.system, clock);
  // The replayed days' customers read what they get on the spot (phones.ts); a message of
  // the last hour may still be unread.
  const phones = replayedPhones(deps.system, () => clock.now() < end - HOUR);
  const replayDeps: AppDeps = { ...deps, outbound: phones.port };
  const app = createApp(replayDeps);
  try {
    await replay.to(plan.start - 3 * HOUR);
    const stage = await setStage(replayDeps, app, companyId);
    await playPaidInvoice(replayDeps, replay, stage.owner, companyId, plan.start - 2 * HOUR);
    // The shared clock stays before every lane's time while they play (replay.ts).
    const played = await playConversations(replayDeps, clock, stage, plan);
    await phones.settled();
    const customers = stage.customers.filter((_, i) => i % 5 === 0);
    const listId = await playFinishedCampaign(replay, stage.staff.admin, stage.whatsappId, customers, localTime(end - 10 * DAY, 10));
    await playTeamChat(replay, stage.staff, localTime(end - 2 * DAY, 9));
    await playSchedules(replay, deps.system, companyId, stage.staff.supervisor, stage.customers, end);
    await playScheduledCampaign(stage.staff.admin, stage.whatsappId, listId, localTime(end + 2 * DAY, 10));
    await replay.to(end);
    await phones.settled();
    return {
      from: plan.start,
      to: end,
      conversations: plan.conversations.length,
      tickets: played.tickets,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await replay.end();
  }
}

/** The records the script names: staff sessions, queues and menu, survey, lanes, opportunities. */
async function setStage(deps: AppDeps, app: ReturnType<typeof createApp>, companyId: number): Promise<Stage & { owner?: StaffSession }> {
  const { system } = deps;
  const everyone = await users.in(system, PLATFORM).list();
  const staffUsers = everyone.filter((u) => u.companyId === companyId && !u.super);
  const ownerUser = everyone.find((u) => u.super);
  const byProfile = (profile: string) => {
    const user = staffUsers.find((u) => u.profile === profile);
    if (!user) throw new Error(`Demo history: the demo company has no ${profile}`);
    return user;
  };
  const people: Record<Staff, { id: number; name: string }> = {
    admin: byProfile("admin"),
    supervisor: byProfile("supervisor"),
    agent: byProfile("user"),
  };
  const [admin, supervisor, agent] = await Promise.all(
    (["admin", "supervisor", "agent"] as const).map((k) => staffSession(app, deps, people[k].id)),
  );
  const connection = (await whatsapps.in(system, companyId).list()).find((w) => w.isDefault);
  if (!connection) throw new Error("Demo history: the demo company has no default connection");
  const menuOrder = byPriority((await queuesOf.in(system, companyId).list()).filter((q) => connection.queueIds.includes(q.id)));
  const [support, sales] = menuOrder;
  // The company surveys every resolved conversation (setting "Avaliações", spec 001 §2.4).
  await admin.call("PUT", "/settings/userRating", { value: "enabled" });
  const rating = await admin.call("POST", "/ratings", {
    name: "Satisfação do atendimento",
    message: "Como você avalia o nosso atendimento?",
    options: [
      { name: "Ótimo", value: 5 },
      { name: "Bom", value: 4 },
      { name: "Regular", value: 3 },
      { name: "Ruim", value: 2 },
      { name: "Péssimo", value: 1 },
    ],
  });
  const existing = (await admin.call<Array<{ id: number; name: string; kanban: number }>>("GET", "/tags/list"))
    .filter((t) => t.kanban === 1);
  const lanes = [...existing.map((t) => t.id)];
  for (const lane of LANES) lanes.push((await admin.call("POST", "/tags", { ...lane, kanban: 1 })).id);
  const oportunidades: number[] = [];
  for (const name of OPORTUNIDADES) oportunidades.push((await supervisor.call("POST", "/oportunidade", { name })).id);
  return {
    companyId,
    whatsappId: connection.id,
    queues: { support: support.id, sales: sales.id },
    menu: { support: String(menuOrder.indexOf(support) + 1), sales: String(menuOrder.indexOf(sales) + 1) },
    staff: { admin, supervisor, agent },
    staffNames: { admin: people.admin.name, supervisor: people.supervisor.name, agent: people.agent.name },
    owner: ownerUser ? await staffSession(app, deps, ownerUser.id) : undefined,
    ratingId: rating.id,
    lanes,
    oportunidades,
    customers: customers(),
  };
}
