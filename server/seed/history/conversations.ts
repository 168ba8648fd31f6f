/**
 * Plays the script's conversations (plan.ts), step by step in time order: a customer's
 * message goes through the connection's inbound path (contact, ticket, the bot's menu and
 * queue greeting, the survey's answer), exactly as the simulated phone's session hands it
 * over; the staff's clicks go through the app's routes as that user (staff.ts).
 */
import { handleInbound } from "../../channels/inbound.ts";
import { getTicket, markTicketRead } from "../../../actors/tickets/mod.ts";
import { isAwaitingRating, surveysOf } from "../../../actors/ratings/mod.ts";
import { LEAD_VALUE_FIELD } from "../../../domain/lead_value.ts";
import type { AppDeps } from "../../deps.ts";
import type { Customer } from "./cast.ts";
import type { Conversation, HistoryPlan, QueueKey, Staff, Step } from "./plan.ts";
import type { ReplayClock } from "../../../actors/_runtime/replay_clock.ts";
import type { EventBus } from "../../../actors/_runtime/bus.ts";
import { companyChannel } from "../../../domain/events.ts";
import type { StaffSession } from "./staff.ts";

/** The demo's records the conversations use, by the script's names. */
export interface Stage {
  companyId: number;
  whatsappId: number;
  queues: Record<QueueKey, number>;
  /** What a customer types to pick each queue in the bot's menu. */
  menu: Record<QueueKey, string>;
  staff: Record<Staff, StaffSession>;
  staffNames: Record<Staff, string>;
  ratingId: number;
  /** Kanban lane tags, by the script's lane number. */
  lanes: number[];
  /** Opportunities, by the script's number. */
  oportunidades: number[];
  customers: Customer[];
}

/** What the conversations left behind. */
export interface Played {
  tickets: number;
  customerMessages: number;
}

const firstName = (name: string) => name.split(" ")[0];

/**
 * Plays every conversation of `plan` on `stage` (deps: the replay's, with its phones). Each
 * customer is a lane of its own (ReplayClock.inLane): its conversations in order, each step at
 * its time, while the other customers' lanes run beside it and their writes share commits.
 * New conversations start in the order of their times across lanes (`Turnstile`), so tickets
 * and contacts are numbered as they would have been.
 */
export async function playConversations(deps: AppDeps, clock: ReplayClock, stage: Stage, plan: HistoryPlan): Promise<Played> {
  const lanes = new Map<number, number[]>();
  plan.conversations.forEach((conversation, c) => {
    const lane = lanes.get(conversation.customer) ?? [];
    lane.push(c);
    lanes.set(conversation.customer, lane);
  });
  const order = plan.conversations.map((conversation, c) => ({ c, at: conversation.steps[0].at }))
    .sort((a, b) => a.at - b.at || a.c - b.c);
  const turnstile = new Turnstile(order.map((o) => o.c));
  const openings = new TicketOpenings(deps.bus, stage.companyId);
  const ticketOf = new Map<number, number>();
  let customerMessages = 0;
  const play = async (c: number, previous: number | undefined) => {
    const conversation = plan.conversations[c];
    const customer = stage.customers[conversation.customer];
    for (const [k, step] of conversation.steps.entries()) {
      await clock.inLane(step.at, async () => {
        if (k === 0) {
          await turnstile.turn(c);
          // The next conversation may start once this one's ticket exists (not after the bot's menu).
          const opened = openings.opened(customer.number);
          try {
            // The previous survey's wait ran out long ago: its timer's handler, at this time
            // (the shared clock that rings timers stays behind the lanes, replay.ts).
            if (previous !== undefined && await isAwaitingRating(deps.system, stage.companyId, previous)) {
              await surveysOf(deps.system, stage.companyId).ask("expire", { ticketId: previous });
            }
            const said = customerSays(deps, stage, customer, `HISTIN${c}M${k}`, step as Extract<Step, { kind: "customer" }>, step.at);
            await Promise.race([opened, said]);
            turnstile.done(c);
            ticketOf.set(c, await said);
          } finally {
            openings.forget(customer.number);
            turnstile.done(c);
          }
          customerMessages++;
          return;
        }
        const ticketId = ticketOf.get(c)!;
        if (step.kind === "customer" || step.kind === "choose" || step.kind === "rate") {
          // A customer answers only a survey that reached them (nothing else takes a bare number).
          if (step.kind === "rate" && !(await isAwaitingRating(deps.system, stage.companyId, ticketId))) return;
          await customerSays(deps, stage, customer, `HISTIN${c}M${k}`, step, step.at);
          customerMessages++;
        } else await staffStep(deps, stage, conversation, ticketId, step);
      });
    }
  };
  try {
    await Promise.all([...lanes.values()].map(async (lane) => {
      let previous: number | undefined;
      for (const c of lane) {
        await play(c, previous);
        previous = ticketOf.get(c);
      }
    }));
  } finally {
    openings.close();
  }
  return { tickets: ticketOf.size, customerMessages };
}

/** A customer's message through the connection's inbound path; resolves with its ticket. */
async function customerSays(
  deps: AppDeps,
  stage: Stage,
  customer: Customer,
  providerId: string,
  step: Extract<Step, { kind: "customer" | "choose" | "rate" }>,
  at: number,
): Promise<number> {
  const body = step.kind === "customer" ? step.text : step.kind === "choose" ? stage.menu[step.queue] : String(step.score);
  const result = await handleInbound(deps, { companyId: stage.companyId, whatsappId: stage.whatsappId }, {
    providerId,
    from: customer.number,
    name: customer.name,
    body,
    mediaType: "chat",
    fromMe: false,
    isGroup: false,
    timestamp: at,
  });
  if (!result) throw new Error(`Demo history: the inbound path dropped ${customer.number}'s message`);
  return result.ticketId;
}

/** Resolves `opened(number)` when the desk publishes a new ticket of that customer (the bus). */
class TicketOpenings {
  readonly #waiting = new Map<string, () => void>();
  readonly #unsubscribe: () => void;

  constructor(bus: EventBus, companyId: number) {
    const channel = companyChannel(companyId, "ticket");
    this.#unsubscribe = bus.subscribe((event) => {
      if (!event.created || event.channel !== channel) return;
      const number = (event.data as { ticket?: { contact?: { number?: string } | null } }).ticket?.contact?.number;
      if (number) this.#waiting.get(number)?.();
    });
  }

  opened(number: string): Promise<void> {
    return new Promise((resolve) => this.#waiting.set(number, resolve));
  }

  forget(number: string): void {
    this.#waiting.delete(number);
  }

  close(): void {
    this.#unsubscribe();
  }
}

/** Lets each key through in the given order: `turn(k)` waits until every key before k is `done`. */
class Turnstile {
  readonly #order: Map<number, number>;
  #next = 0;
  readonly #waiting = new Map<number, () => void>();

  constructor(order: readonly number[]) {
    this.#order = new Map(order.map((key, i) => [key, i]));
  }

  turn(key: number): Promise<void> {
    const place = this.#order.get(key)!;
    if (place === this.#next) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.set(place, resolve));
  }

  done(key: number): void {
    if (this.#order.get(key) !== this.#next) return;
    this.#next++;
    const wake = this.#waiting.get(this.#next);
    this.#waiting.delete(this.#next);
    wake?.();
  }
}

/** One click of a staff member on the conversation's ticket. */
async function staffStep(
  deps: AppDeps,
  stage: Stage,
  conversation: Conversation,
  ticketId: number,
  step: Exclude<Step, { kind: "customer" | "choose" | "rate" }>,
): Promise<void> {
  const as = stage.staff[step.by];
  // Whoever acts on a conversation has it open: what the customer wrote is read, as the
  // inbox's GET /messages marks it.
  if (step.kind === "reply" || step.kind === "close") await markTicketRead(deps.system, stage.companyId, ticketId);
  switch (step.kind) {
    case "accept": {
      const ticket = await getTicket(deps.system, stage.companyId, ticketId);
      // Accepting reads the conversation (its unread count goes to zero).
      await as.call("PUT", `/tickets/${ticketId}`, { status: "open", userId: as.userId, queueId: ticket?.queueId ?? null });
      return;
    }
    case "reply": {
      const customer = stage.customers[conversation.customer];
      const body = step.text.replaceAll("{name}", firstName(customer.name)).replaceAll("{agent}", firstName(stage.staffNames[step.by]));
      await as.call("POST", `/messages/${ticketId}`, { body });
      return;
    }
    case "transfer":
      await as.call("PUT", `/tickets/${ticketId}`, { queueId: stage.queues[step.queue], status: "pending", userId: null });
      return;
    case "lead": {
      const ticket = await getTicket(deps.system, stage.companyId, ticketId);
      const customer = stage.customers[conversation.customer];
      if (ticket && customer.leadValue) {
        await as.call("PUT", `/contacts/${ticket.contactId}`, { extraInfo: [{ name: LEAD_VALUE_FIELD, value: customer.leadValue }] });
      }
      await as.call("PUT", `/ticket-tags/${ticketId}/${stage.lanes[step.lane]}`);
      if (step.oportunidade !== null) {
        await as.call("PUT", `/tickets/${ticketId}`, { oportunidadeId: stage.oportunidades[step.oportunidade] });
      }
      return;
    }
    case "close":
      await as.call("PUT", `/tickets/${ticketId}`, {
        status: "closed",
        userId: as.userId,
        sendFarewellMessage: step.farewell,
        ratingId: stage.ratingId,
      });
      return;
  }
}
