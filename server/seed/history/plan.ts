/**
 * The demo's thirty days as a script (pure: no I/O, no clock): which customer writes when,
 * about what, who answers, who transfers, who closes and what the customer rates. The same
 * seed and end time give the same script (random.ts), so tests can rely on it.
 *
 * Shape of a day (São Paulo time, the demo's time zone): conversations start between 8:30
 * and 17:30, more on weekdays than on Saturday, few on Sunday. A conversation opens with the
 * customer's text, the bot's menu, the customer's choice of queue and a detail; someone of
 * the queue accepts after a wait, they talk, sometimes the ticket is transferred, and it is
 * closed with the satisfaction survey, which most customers answer.
 *
 * The last conversations before the end stay unfinished, so the inbox has every state:
 * waiting at the bot's menu (no queue), waiting in a queue, and open with the customer having
 * the last word (an open ticket whose customer is silent would be closed by the 24-hour rule,
 * domain/ticket_timers.ts). A customer writes again only after the survey's wait of the
 * previous conversation is over (a message inside it would be read as the rating).
 */
import { RATING_WAIT_MS } from "../../../domain/rating.ts";
import { customers, TOPICS } from "./cast.ts";
import { Dice } from "./random.ts";

export type Staff = "admin" | "supervisor" | "agent";
export type QueueKey = "support" | "sales";

/** One thing that happens in a conversation, at `at` (ms). */
export type Step =
  | { at: number; kind: "customer"; text: string }
  /** The customer picks a queue in the bot's menu. */
  | { at: number; kind: "choose"; queue: QueueKey }
  | { at: number; kind: "accept"; by: Staff }
  | { at: number; kind: "reply"; by: Staff; text: string }
  /** To another queue, waiting there (no user). */
  | { at: number; kind: "transfer"; by: Staff; queue: QueueKey }
  /** A kanban lane (tag) and the opportunity the seller links; sales only. */
  | { at: number; kind: "lead"; by: Staff; lane: number; oportunidade: number | null }
  /** Resolves the ticket; the company requires the satisfaction survey (mod.ts turns userRating on). */
  | { at: number; kind: "close"; by: Staff; farewell: boolean }
  /** The customer's survey answer (1–5). */
  | { at: number; kind: "rate"; score: number };

/** How a conversation stands when the script ends. */
export type Outcome = "closed" | "open" | "pending" | "bot";

export interface Conversation {
  /** Index into `customers()`. */
  customer: number;
  topic: number;
  outcome: Outcome;
  steps: Step[];
}

export interface HistoryPlan {
  start: number;
  end: number;
  conversations: Conversation[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** São Paulo is UTC−3 all year (no daylight saving since 2019). */
const SAO_PAULO_OFFSET = -3 * HOUR;
/** Conversations left unfinished at the end, by outcome, latest first. */
const UNFINISHED: ReadonlyArray<readonly [Outcome, number]> = [["bot", 2], ["pending", 5], ["open", 7]];
/**
 * Minutes before the end at which the last customers write, whatever the hour (people write
 * to WhatsApp at night too): the first login's "today" already has conversations waiting.
 */
const LAST_ARRIVALS = [150, 110, 70, 45, 20];

/** Who takes a ticket of each queue, and how often (the agent works in Suporte only). */
const TAKERS: Record<QueueKey, ReadonlyArray<readonly [Staff, number]>> = {
  support: [["agent", 6], ["supervisor", 3], ["admin", 1]],
  sales: [["supervisor", 6], ["admin", 4]],
};

/** Survey scores: mostly satisfied customers, some not. */
const SCORES: ReadonlyArray<readonly [number, number]> = [[5, 55], [4, 25], [3, 10], [2, 6], [1, 4]];

/** The local midnight (São Paulo) of the day `ms` falls in, in ms. */
function localMidnight(ms: number): number {
  return Math.floor((ms + SAO_PAULO_OFFSET) / DAY) * DAY - SAO_PAULO_OFFSET;
}

/** Conversations that start on a day: by weekday (0 = Sunday). */
function perDay(dice: Dice, weekday: number): number {
  if (weekday === 0) return dice.int(0, 1);
  if (weekday === 6) return dice.int(1, 3);
  return dice.int(3, 5);
}

/** The script of the `days` days before `end`; see the module doc. */
export function planHistory(end: number, seed = 20_251_201, days = 30): HistoryPlan {
  const dice = new Dice(seed);
  const cast = customers();
  const start = localMidnight(end - days * DAY);
  const starts: number[] = [];
  for (let day = start; day < end; day += DAY) {
    const weekday = new Date(day - SAO_PAULO_OFFSET).getUTCDay();
    const count = perDay(dice, weekday);
    for (let i = 0; i < count; i++) starts.push(day + 8.5 * HOUR + dice.int(0, 9 * 60) * MINUTE);
  }
  const recent = LAST_ARRIVALS.map((m) => end - m * MINUTE);
  const inRange = [...starts.filter((t) => t > start && t < recent[0] - 30 * MINUTE), ...recent].sort((a, b) => a - b);
  // The last ones stay unfinished (module doc), in the order of UNFINISHED.
  const unfinished: Outcome[] = UNFINISHED.flatMap(([outcome, n]) => Array<Outcome>(n).fill(outcome));
  const outcomeOf = (i: number): Outcome => unfinished[inRange.length - 1 - i] ?? "closed";

  const freeAt = new Array<number>(cast.length).fill(0);
  const conversations: Conversation[] = [];
  inRange.forEach((t0, i) => {
    const outcome = outcomeOf(i);
    const topic = dice.int(0, TOPICS.length - 1);
    const buyer = TOPICS[topic].queue === "sales";
    // A free customer: buyers among those with a lead value, the others among the rest.
    const pool = cast.map((_, k) => k).filter((k) => (cast[k].leadValue !== null) === buyer && freeAt[k] <= t0);
    if (pool.length === 0) return;
    const customer = dice.pick(pool);
    const steps = conversationSteps(dice, t0, topic, outcome, end);
    const last = steps[steps.length - 1].at;
    // A closed conversation that would run past the end is left out (the end's states are set above).
    if (outcome === "closed" && last >= end) return;
    freeAt[customer] = outcome === "closed" ? last + RATING_WAIT_MS + HOUR : Infinity;
    conversations.push({ customer, topic, outcome, steps });
  });
  return { start, end, conversations };
}

/** The steps of one conversation starting at `t0`; see the module doc. */
function conversationSteps(dice: Dice, t0: number, topicIndex: number, outcome: Outcome, end: number): Step[] {
  const topic = TOPICS[topicIndex];
  const steps: Step[] = [{ at: t0, kind: "customer", text: topic.opening }];
  let t = t0;
  const after = (min: number, max: number) => (t += dice.int(min, max) * 1000);
  if (outcome === "bot") return steps;
  steps.push({ at: after(20, 90), kind: "choose", queue: topic.queue });
  steps.push({ at: after(15, 60), kind: "customer", text: topic.detail });
  if (outcome === "pending") {
    // A seller marks a waiting buyer as a hot lead before anyone answers (the kanban's first lane).
    if (topic.queue === "sales") steps.push({ at: after(60, 300), kind: "lead", by: "supervisor", lane: 0, oportunidade: null });
    return steps.filter((s) => s.at < end);
  }

  let queue = topic.queue;
  let by = dice.weighted(TAKERS[queue]);
  // Waits in the queue: a few minutes, sometimes half an hour.
  steps.push({ at: after(60, dice.chance(0.2) ? 1800 : 600), kind: "accept", by });
  // A support call that turns into a sale goes to Vendas and waits there.
  if (queue === "support" && outcome === "closed" && dice.chance(0.12)) {
    steps.push({ at: after(60, 180), kind: "reply", by, text: "Vou te transferir para o nosso time de *Vendas*, só um instante." });
    steps.push({ at: after(10, 40), kind: "transfer", by, queue: "sales" });
    queue = "sales";
    by = dice.weighted(TAKERS.sales);
    steps.push({ at: after(120, 900), kind: "accept", by });
  }
  const lines = outcome === "open" ? openLines(topic.lines) : topic.lines;
  for (const [who, text] of lines) {
    if (who === "a") steps.push({ at: after(40, 240), kind: "reply", by, text });
    else steps.push({ at: after(60, 420), kind: "customer", text });
  }
  if (queue === "sales") {
    const oportunidade = dice.chance(0.4) ? topicIndex % 3 : null;
    // A buyer who talked moves on from "Lead quente" (where waiting ones are) to a proposal or a negotiation.
    steps.push({ at: after(20, 90), kind: "lead", by, lane: dice.int(1, 2), oportunidade });
  }
  if (outcome === "open") return steps.filter((s) => s.at < end);
  steps.push({ at: after(30, 120), kind: "reply", by, text: topic.farewell });
  // The connection's closing text too, or the agent's own goodbye above was enough.
  steps.push({ at: after(30, 240), kind: "close", by, farewell: dice.chance(0.4) });
  if (dice.chance(0.75)) steps.push({ at: after(60, 1800), kind: "rate", score: dice.weighted(SCORES) });
  return steps;
}

/** An open conversation's lines: up to (and with) a customer's line, so the customer has the last word. */
function openLines(lines: readonly (readonly ["c" | "a", string])[]): ReadonlyArray<readonly ["c" | "a", string]> {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i][0] === "c") return lines.slice(0, i + 1);
  return [];
}
