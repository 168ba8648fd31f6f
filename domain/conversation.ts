/**
 * The conversation engine's decision for one customer message (issue #17; spec 001 §3 Queue,
 * Queue option, Connection and Setting; §4 bot tree), pure: the conversation's state, the
 * message and what it needs to know in; the next state and the actions to perform out. The
 * server loads the context and performs the actions (server/conversation/); the conversation
 * actor applies the decision one message at a time (actors/conversations/).
 *
 * The order of the rules, and the readings chosen where the spec shows no server:
 * 1. A ticket an agent holds (open, or with a user) has no bot. Outside the hours it still
 *    gets the out-of-hours message when `outsidemessage` is on, as a waiting one does.
 * 2. Opening hours (`scheduleType`: the company's, or the ticket's queue's; none while it has
 *    no queue). In a closed period a conversation gets the out-of-hours message (the queue's,
 *    else the connection's) once per closed period (closed_period.ts), only while the switch
 *    "Mensagem fora do expediente" (`outsidemessage`) is on: off, no out-of-hours text is
 *    ever sent (#41: it used to reach waiting customers whatever the switch said). With
 *    `outsidequeue` off the bot stays quiet until the hours open; on, the customer is still
 *    routed (menu and queue choice) and waits in the queue.
 * 3. A new conversation: with several queues on the connection, its greeting and the queue
 *    menu; with one, that queue's option tree when it has one (headed by the queue's greeting,
 *    else the connection's), else the connection's greeting when
 *    `sendGreetingMessageOneQueues` is on. A waiting ticket with no queue and no bot (it came
 *    in while closed) starts the same way on its next message.
 * 4. A reply walks the queue menu or the option tree (bot_walker.ts). Entering a queue sends
 *    its greeting, or its tree's menu headed by it; with `sendQueuePosition` on, a queue
 *    without a tree tells the customer's place in line.
 * Menus are text, or a WhatsApp list as well when `chatBotType` is "list".
 */
import { BOT_TEXTS } from "./conversation_texts.ts";
import { closedPeriodKey } from "./closed_period.ts";
import {
  foldReply,
  isBack,
  levelOf,
  type MenuEntry,
  menuEntries,
  type MenuList,
  menuList,
  menuText,
  nodeOf,
  pickByReply,
  validPath,
  walk,
  type WalkOption,
} from "./bot_walker.ts";
import type { OpeningHours } from "./schedule_hours.ts";
import { settingOn } from "./settings.ts";

/** Where the bot is in a conversation. */
export interface BotState {
  /** "queues": the connection's queue menu is open; "options": a queue's option tree. */
  stage: "queues" | "options";
  /** The queues the queue menu offered, in its order. */
  queueIds: number[];
  /** The queue whose tree is walked. */
  queueId: number | null;
  /** Option ids from a root to the level shown now ([] = the roots). */
  path: number[];
  /** The n8n option the customer is talking to, or null. */
  n8n: number | null;
}

/** The durable state of one conversation (one ticket). */
export interface ConversationState {
  v: 1;
  bot: BotState | null;
  /** The closed period whose out-of-hours message this conversation got (closed_period.ts). */
  closedNotice: string | null;
  /** The place in line last told, and in which queue. */
  position: { queueId: number; n: number } | null;
}

/** A fresh conversation. */
export function newConversation(): ConversationState {
  return { v: 1, bot: null, closedNotice: null, position: null };
}

/** What the engine reads of a queue. */
export interface ConversationQueue extends OpeningHours {
  id: number;
  name: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  resetChatbotMsg: boolean;
}

/** What the engine reads of an option. */
export type ConversationOption = WalkOption & { queueId: number };

/** Everything one decision reads, loaded by the caller. */
export interface ConversationContext {
  now: number;
  timeZone: string;
  settings: Readonly<Record<string, string>>;
  companyHours: OpeningHours;
  connection: { greetingMessage: string; outOfHoursMessage: string; queueIds: readonly number[] };
  /** The company's queues by id. */
  queues: ReadonlyMap<number, ConversationQueue>;
  /** The company's options (every queue's). */
  options: readonly ConversationOption[];
  ticket: { status: string; userId: number | null; queueId: number | null };
}

/** The message: the first of a new ticket, or a later one. */
export interface ConversationInput {
  type: "new" | "reply";
  text: string;
}

/** What the caller performs, in order. */
export type ConversationAction =
  | { type: "send"; text: string; list?: MenuList; media?: { path: string; name: string } }
  | { type: "moveQueue"; queueId: number }
  | { type: "assign"; userId: number }
  /** Post `text` to the n8n option's integration (`url`: the option's message) and send the answer. */
  | { type: "n8n"; optionId: number; url: string; text: string }
  /** A system line for the agent: the choice the customer made. */
  | { type: "track"; detail: string }
  /** Tell the customer's place in line in `queueId` (setting sendQueuePosition). */
  | { type: "position"; queueId: number };

/** A decision: the next state and the actions. */
export interface ConversationStep {
  state: ConversationState;
  actions: ConversationAction[];
}

/**
 * Whether a reply leaves the conversation as it is and asks for nothing, judged without the
 * context: no hours to keep (`scheduleType` neither "company" nor "queue"), no menu open, and
 * none to open again (the ticket has a queue, or the connection offers at most one). Most
 * replies are such; the engine skips loading the context for them (server/conversation), and
 * `converse` answers them through this same rule, so the two cannot disagree.
 */
export function quietReply(
  state: ConversationState,
  ticket: ConversationContext["ticket"],
  scheduleType: string | undefined,
  offeredQueues: number,
): boolean {
  if (state.bot !== null || scheduleType === "company" || scheduleType === "queue") return false;
  const waiting = ticket.status === "pending" && ticket.userId === null;
  return !waiting || ticket.queueId !== null || offeredQueues <= 1;
}

/** Decides one message; see the module doc. */
export function converse(
  state: ConversationState,
  input: ConversationInput,
  ctx: ConversationContext,
): ConversationStep {
  if (input.type === "reply" && quietReply(state, ctx.ticket, ctx.settings.scheduleType, ctx.connection.queueIds.length)) {
    return { state, actions: [] };
  }
  const next: ConversationState = { ...state };
  const actions: ConversationAction[] = [];
  const { ticket, settings } = ctx;
  const waiting = ticket.status === "pending" && ticket.userId === null;

  const closedKey = closedNow(ctx, ticket.queueId);
  if (closedKey !== null && settingOn(settings.outsidemessage) && next.closedNotice !== closedKey) {
    const text = outOfHoursText(ctx, ticket.queueId);
    if (text) actions.push({ type: "send", text });
    next.closedNotice = closedKey;
  }
  if (!waiting) return { state: { ...next, bot: null }, actions };
  if (closedKey !== null && !settingOn(settings.outsidequeue)) return { state: next, actions };

  const connectionQueues = ctx.connection.queueIds.filter((id) => ctx.queues.has(id));
  const restart = input.type === "reply" && next.bot === null && ticket.queueId === null && connectionQueues.length > 1;
  if (input.type === "new" || restart) {
    start(next, actions, ctx, connectionQueues);
  } else if (next.bot?.stage === "queues") {
    chooseQueue(next, actions, ctx, next.bot, input.text);
  } else if (next.bot?.stage === "options") {
    walkOptions(next, actions, ctx, next.bot, input.text);
  }
  return { state: next, actions };
}

/** The key of the closed period now for the hours that apply, or null when open (or no hours). */
function closedNow(ctx: ConversationContext, queueId: number | null): string | null {
  const type = ctx.settings.scheduleType;
  if (type === "company") return closedPeriodKey(ctx.companyHours, ctx.now, ctx.timeZone);
  if (type === "queue" && queueId !== null) {
    const queue = ctx.queues.get(queueId);
    return queue ? closedPeriodKey(queue, ctx.now, ctx.timeZone) : null;
  }
  return null;
}

function outOfHoursText(ctx: ConversationContext, queueId: number | null): string {
  const queue = queueId === null ? undefined : ctx.queues.get(queueId);
  const own = ctx.settings.scheduleType === "queue" ? queue?.outOfHoursMessage?.trim() : "";
  return own || ctx.connection.outOfHoursMessage.trim();
}

/** The menu of `entries` as a send action: text, plus a list when chatBotType is "list". */
function menuAction(ctx: ConversationContext, header: string, entries: readonly MenuEntry[]): ConversationAction {
  const text = menuText(header, entries);
  if (ctx.settings.chatBotType !== "list") return { type: "send", text };
  const list = menuList(header, entries, BOT_TEXTS.listButton, BOT_TEXTS.listSection);
  return list ? { type: "send", text, list } : { type: "send", text };
}

function queueEntries(ctx: ConversationContext, queueIds: readonly number[]): MenuEntry[] {
  return queueIds.map((id, i) => ({ n: i + 1, title: ctx.queues.get(id)?.name ?? "" }));
}

function optionsOf(ctx: ConversationContext, queueId: number): ConversationOption[] {
  return ctx.options.filter((o) => o.queueId === queueId);
}

/** A new conversation (rule 3). */
function start(s: ConversationState, actions: ConversationAction[], ctx: ConversationContext, queueIds: number[]): void {
  const greeting = ctx.connection.greetingMessage;
  if (queueIds.length > 1) {
    s.bot = { stage: "queues", queueIds, queueId: null, path: [], n8n: null };
    actions.push(menuAction(ctx, greeting, queueEntries(ctx, queueIds)));
    return;
  }
  const only = queueIds.length === 1 ? ctx.queues.get(queueIds[0]) : undefined;
  if (only && optionsOf(ctx, only.id).length > 0) {
    enterQueue(s, actions, ctx, only, greeting);
    return;
  }
  s.bot = null;
  if (greeting.trim() && settingOn(ctx.settings.sendGreetingMessageOneQueues)) actions.push({ type: "send", text: greeting });
  if (only && settingOn(ctx.settings.sendQueuePosition)) actions.push({ type: "position", queueId: only.id });
}

/**
 * The conversation is now in `queue`: its tree's menu (headed by its greeting, else
 * `fallbackHeader`), or its greeting and the place in line; out of its hours (scheduleType
 * "queue") its out-of-hours message instead, once per closed period.
 */
function enterQueue(
  s: ConversationState,
  actions: ConversationAction[],
  ctx: ConversationContext,
  queue: ConversationQueue,
  fallbackHeader: string,
): void {
  const closedKey = ctx.settings.scheduleType === "queue" ? closedNow(ctx, queue.id) : null;
  if (closedKey !== null) {
    if (s.closedNotice !== closedKey && settingOn(ctx.settings.outsidemessage)) {
      const text = outOfHoursText(ctx, queue.id);
      if (text) actions.push({ type: "send", text });
      s.closedNotice = closedKey;
    }
    if (!settingOn(ctx.settings.outsidequeue)) {
      s.bot = null;
      return;
    }
  }
  const roots = levelOf(optionsOf(ctx, queue.id), []);
  if (roots.length > 0) {
    s.bot = { stage: "options", queueIds: [], queueId: queue.id, path: [], n8n: null };
    const header = queue.greetingMessage.trim() || fallbackHeader.trim() || BOT_TEXTS.chooseOption;
    actions.push(menuAction(ctx, header, menuEntries(roots, false, BOT_TEXTS.back)));
    return;
  }
  s.bot = null;
  if (queue.greetingMessage.trim()) actions.push({ type: "send", text: queue.greetingMessage });
  if (settingOn(ctx.settings.sendQueuePosition)) actions.push({ type: "position", queueId: queue.id });
}

/** A reply to the queue menu. */
function chooseQueue(
  s: ConversationState,
  actions: ConversationAction[],
  ctx: ConversationContext,
  bot: BotState,
  text: string,
): void {
  const offered = bot.queueIds.filter((id) => ctx.queues.has(id));
  const picked = isBack(text) ? null : pickByReply(text, offered, (_, i) => i + 1, (id) => ctx.queues.get(id)!.name);
  if (picked === null) {
    actions.push(menuAction(ctx, ctx.connection.greetingMessage, queueEntries(ctx, offered)));
    return;
  }
  const queue = ctx.queues.get(picked)!;
  actions.push({ type: "track", detail: `${offered.indexOf(picked) + 1} - ${queue.name}` });
  actions.push({ type: "moveQueue", queueId: queue.id });
  enterQueue(s, actions, ctx, queue, "");
}

/** The menu of the level at `path` in `queue`: headed by the node's message, or the queue's greeting. */
function levelMenu(ctx: ConversationContext, queue: ConversationQueue, options: readonly ConversationOption[], path: number[]) {
  const node = nodeOf(options, path);
  const header = node ? node.message : (queue.greetingMessage.trim() || BOT_TEXTS.chooseOption);
  return menuAction(ctx, header, menuEntries(levelOf(options, path), path.length > 0, BOT_TEXTS.back));
}

/** A reply inside a queue's option tree (or to its n8n integration). */
function walkOptions(
  s: ConversationState,
  actions: ConversationAction[],
  ctx: ConversationContext,
  bot: BotState,
  text: string,
): void {
  const queue = bot.queueId === null ? undefined : ctx.queues.get(bot.queueId);
  const options = queue ? optionsOf(ctx, queue.id) : [];
  if (!queue || options.length === 0) {
    s.bot = null;
    return;
  }
  const n8n = bot.n8n === null ? undefined : options.find((o) => o.id === bot.n8n && o.queueType === "n8n");
  if (n8n) {
    if (isBack(text)) {
      const path = validPath(options, bot.path);
      s.bot = { ...bot, path, n8n: null };
      actions.push(levelMenu(ctx, queue, options, path));
    } else if (foldReply(text) !== "") {
      actions.push({ type: "n8n", optionId: n8n.id, url: n8n.message.trim(), text });
    }
    return;
  }
  const step = walk(options, bot.path, text, queue.resetChatbotMsg);
  switch (step.type) {
    case "menu":
      s.bot = { ...bot, path: step.path, n8n: null };
      actions.push(levelMenu(ctx, queue, options, step.path));
      return;
    case "open":
      s.bot = { ...bot, path: step.path, n8n: null };
      actions.push({ type: "track", detail: `${step.option.option} - ${step.option.title}` });
      actions.push(levelMenu(ctx, queue, options, step.path));
      return;
    case "text":
      s.bot = { ...bot, path: step.path, n8n: null };
      actions.push({ type: "track", detail: `${step.option.option} - ${step.option.title}` });
      actions.push(optionMessage(step.option));
      return;
    case "act":
      actions.push({ type: "track", detail: `${step.option.option} - ${step.option.title}` });
      act(s, actions, ctx, { ...bot, path: step.path }, step.option);
      return;
  }
}

/** A text option's message with its media (the message is the media's caption). */
function optionMessage(option: WalkOption): ConversationAction {
  return option.mediaPath
    ? { type: "send", text: option.message, media: { path: option.mediaPath, name: option.mediaName ?? option.mediaPath } }
    : { type: "send", text: option.message };
}

/** A queue, attendent or n8n option was chosen. */
function act(
  s: ConversationState,
  actions: ConversationAction[],
  ctx: ConversationContext,
  bot: BotState,
  option: ConversationOption,
): void {
  switch (option.queueType) {
    case "queue": {
      const target = option.queueOptionsId === null ? undefined : ctx.queues.get(option.queueOptionsId);
      if (!target) {
        // The target queue was deleted since the option was saved: show the level again.
        s.bot = bot;
        const queue = ctx.queues.get(bot.queueId!)!;
        actions.push(levelMenu(ctx, queue, optionsOf(ctx, queue.id), bot.path));
        return;
      }
      actions.push({ type: "moveQueue", queueId: target.id });
      enterQueue(s, actions, ctx, target, "");
      return;
    }
    case "attendent":
      s.bot = null;
      if (option.message.trim()) actions.push({ type: "send", text: option.message });
      if (option.queueUsersId !== null) actions.push({ type: "assign", userId: option.queueUsersId });
      return;
    case "n8n":
      s.bot = { ...bot, n8n: option.id };
      actions.push({ type: "n8n", optionId: option.id, url: option.message.trim(), text: option.title });
      return;
    case "text":
      return;
  }
}

/** Places in line worth telling again as the queue moves: the last few before one's turn. */
export const RETELL_POSITION_UP_TO = 3;

/**
 * Whether a customer told place `last` should be told `n` now (the queue moved): only when
 * the place improved in the same queue and is among the last few, so a long line sends each
 * customer at most a handful of updates — never one per ticket ahead.
 */
export function retellPosition(last: ConversationState["position"], queueId: number, n: number): boolean {
  return last !== null && last.queueId === queueId && n < last.n && n <= RETELL_POSITION_UP_TO;
}
