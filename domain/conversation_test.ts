/** Unit tests of the conversation decision (domain/conversation.ts) on fixed clocks. */
import assert from "node:assert/strict";
import {
  type ConversationContext,
  type ConversationOption,
  type ConversationQueue,
  type ConversationState,
  converse,
  newConversation,
  quietReply,
  retellPosition,
} from "./conversation.ts";
import { DEFAULT_LUNCH, DEFAULT_SCHEDULES } from "./queue.ts";
import { SETTING_DEFAULTS } from "./settings.ts";

const sp = (iso: string) => Date.parse(`${iso}-03:00`);
const TUESDAY_10H = sp("2025-03-04T10:00:00");
const TUESDAY_19H = sp("2025-03-04T19:00:00");
const WEDNESDAY_07H = sp("2025-03-05T07:00:00");
const WEDNESDAY_19H = sp("2025-03-05T19:00:00");

const queue = (id: number, name: string, extra: Partial<ConversationQueue> = {}): ConversationQueue => ({
  id,
  name,
  greetingMessage: `Bem-vindo a ${name}`,
  outOfHoursMessage: "",
  resetChatbotMsg: false,
  schedules: DEFAULT_SCHEDULES,
  lunchHour: DEFAULT_LUNCH,
  ...extra,
});

const options: ConversationOption[] = [
  { id: 1, queueId: 10, parentId: null, option: 1, title: "Boletos", message: "Veja o site", queueType: "text", queueOptionsId: null, queueUsersId: null, mediaPath: null, mediaName: null },
  { id: 2, queueId: 10, parentId: null, option: 2, title: "Vendas", message: "", queueType: "queue", queueOptionsId: 20, queueUsersId: null, mediaPath: null, mediaName: null },
];

function context(over: Partial<ConversationContext> & { settings?: Record<string, string> } = {}): ConversationContext {
  return {
    now: TUESDAY_10H,
    timeZone: "America/Sao_Paulo",
    companyHours: { schedules: DEFAULT_SCHEDULES, lunchHour: DEFAULT_LUNCH },
    connection: { greetingMessage: "Olá!", outOfHoursMessage: "Fechados agora.", queueIds: [10, 20] },
    queues: new Map([[10, queue(10, "Suporte")], [20, queue(20, "Vendas")]]),
    options,
    ticket: { status: "pending", userId: null, queueId: null },
    ...over,
    settings: { ...SETTING_DEFAULTS, ...over.settings },
  };
}

const texts = (actions: { type: string; text?: string }[]) => actions.filter((a) => a.type === "send").map((a) => a.text);

Deno.test("converse() greets a new conversation with the queue menu and walks into a queue's tree", () => {
  const first = converse(newConversation(), { type: "new", text: "oi" }, context());
  assert.deepEqual(texts(first.actions), ["Olá!\n\n*1* - Suporte\n*2* - Vendas"]);
  const chosen = converse(first.state, { type: "reply", text: "1" }, context());
  assert.deepEqual(chosen.actions.map((a) => a.type), ["track", "moveQueue", "send"]);
  assert.equal(chosen.state.bot?.stage, "options");
  const moved = converse(chosen.state, { type: "reply", text: "2" }, context({ ticket: { status: "pending", userId: null, queueId: 10 } }));
  assert.deepEqual(moved.actions.map((a) => a.type), ["track", "moveQueue", "send"]);
  assert.equal(moved.state.bot, null, "Vendas has no tree: the bot is done");
});

Deno.test("converse() stops the bot once an agent holds the ticket", () => {
  const first = converse(newConversation(), { type: "new", text: "oi" }, context());
  const taken = converse(first.state, { type: "reply", text: "1" }, context({ ticket: { status: "open", userId: 5, queueId: null } }));
  assert.deepEqual(taken.actions, []);
  assert.equal(taken.state.bot, null);
});

Deno.test("converse() sends the out-of-hours message once per closed period, and no menu unless outsidequeue is on", () => {
  const settings = { scheduleType: "company" };
  const night = converse(newConversation(), { type: "new", text: "oi" }, context({ now: TUESDAY_19H, settings }));
  assert.deepEqual(texts(night.actions), ["Fechados agora."]);
  const later = converse(night.state, { type: "reply", text: "alô" }, context({ now: WEDNESDAY_07H, settings }));
  assert.deepEqual(later.actions, [], "same closed period: told once");
  const nextNight = converse(later.state, { type: "reply", text: "alô" }, context({ now: WEDNESDAY_19H, settings }));
  assert.deepEqual(texts(nextNight.actions), ["Fechados agora."], "a new closed period: told again");
  const opened = converse(nextNight.state, { type: "reply", text: "bom dia" }, context({ now: TUESDAY_10H, settings }));
  assert.match(texts(opened.actions)[0] ?? "", /\*1\* - Suporte/, "a ticket without a queue starts the menu once open");

  const routed = converse(newConversation(), { type: "new", text: "oi" }, context({ now: TUESDAY_19H, settings: { ...settings, outsidequeue: "enabled" } }));
  assert.deepEqual(texts(routed.actions), ["Fechados agora.", "Olá!\n\n*1* - Suporte\n*2* - Vendas"]);
});

Deno.test("converse() sends no out-of-hours message at all while 'Mensagem fora do expediente' is off (#41)", () => {
  const settings = { scheduleType: "company", outsidemessage: "disabled" };
  const night = converse(newConversation(), { type: "new", text: "oi" }, context({ now: TUESDAY_19H, settings }));
  assert.deepEqual(night.actions, []);
  const routed = converse(newConversation(), { type: "new", text: "oi" }, context({ now: TUESDAY_19H, settings: { ...settings, outsidequeue: "enabled" } }));
  assert.deepEqual(texts(routed.actions), ["Olá!\n\n*1* - Suporte\n*2* - Vendas"]);
  const queues = new Map([[10, queue(10, "Suporte", { outOfHoursMessage: "Suporte fechado." })], [20, queue(20, "Vendas")]]);
  const byQueue = { scheduleType: "queue", outsidemessage: "disabled" };
  const first = converse(newConversation(), { type: "new", text: "oi" }, context({ now: TUESDAY_19H, settings: byQueue, queues }));
  assert.deepEqual(converse(first.state, { type: "reply", text: "suporte" }, context({ now: TUESDAY_19H, settings: byQueue, queues })).actions.filter((a) => a.type === "send"), []);
});

Deno.test("converse() with scheduleType queue uses the chosen queue's hours and message; outsidemessage reaches open tickets too", () => {
  const settings = { scheduleType: "queue" };
  const queues = new Map([[10, queue(10, "Suporte", { outOfHoursMessage: "Suporte fechado." })], [20, queue(20, "Vendas")]]);
  const first = converse(newConversation(), { type: "new", text: "oi" }, context({ now: TUESDAY_19H, settings, queues }));
  assert.match(texts(first.actions)[0] ?? "", /\*1\* - Suporte/, "no queue yet: no hours apply");
  const chosen = converse(first.state, { type: "reply", text: "suporte" }, context({ now: TUESDAY_19H, settings, queues }));
  assert.deepEqual(texts(chosen.actions), ["Suporte fechado."]);
  assert.equal(chosen.state.bot, null);

  const open = { status: "open", userId: 3, queueId: 10 };
  assert.deepEqual(converse(newConversation(), { type: "reply", text: "x" }, context({ now: TUESDAY_19H, settings: { ...settings, outsidemessage: "disabled" }, queues, ticket: open })).actions, []);
  const told = converse(newConversation(), { type: "reply", text: "x" }, context({ now: TUESDAY_19H, settings: { ...settings, outsidemessage: "enabled" }, queues, ticket: open }));
  assert.deepEqual(texts(told.actions), ["Suporte fechado."]);
});

Deno.test("converse() with one queue: its tree, else the greeting only with sendGreetingMessageOneQueues, and the place in line", () => {
  const one = { greetingMessage: "Olá!", outOfHoursMessage: "", queueIds: [20] };
  const quiet = converse(newConversation(), { type: "new", text: "oi" }, context({ connection: one, ticket: { status: "pending", userId: null, queueId: 20 } }));
  assert.deepEqual(quiet.actions, []);
  const greeted = converse(newConversation(), { type: "new", text: "oi" }, context({
    connection: one,
    ticket: { status: "pending", userId: null, queueId: 20 },
    settings: { sendGreetingMessageOneQueues: "enabled", sendQueuePosition: "enabled" },
  }));
  assert.deepEqual(greeted.actions, [{ type: "send", text: "Olá!" }, { type: "position", queueId: 20 }]);
  const tree = converse(newConversation(), { type: "new", text: "oi" }, context({ connection: { ...one, queueIds: [10] }, ticket: { status: "pending", userId: null, queueId: 10 } }));
  assert.deepEqual(texts(tree.actions), ["Bem-vindo a Suporte\n\n*1* - Boletos\n*2* - Vendas"]);
});

Deno.test("retellPosition() tells only a better place among the last few, in the same queue", () => {
  const last: ConversationState["position"] = { queueId: 1, n: 5 };
  assert.equal(retellPosition(last, 1, 4), false);
  assert.equal(retellPosition(last, 1, 3), true);
  assert.equal(retellPosition({ queueId: 1, n: 2 }, 1, 2), false);
  assert.equal(retellPosition({ queueId: 1, n: 2 }, 2, 1), false);
  assert.equal(retellPosition(null, 1, 1), false);
});

Deno.test("quietReply() tells the replies that change nothing, and only those", () => {
  const idle = newConversation();
  const pending = (queueId: number | null) => ({ status: "pending", userId: null, queueId });
  // A waiting ticket with its queue, or on a connection of one queue: nothing to decide.
  assert.equal(quietReply(idle, pending(10), "disabled", 2), true);
  assert.equal(quietReply(idle, pending(null), "disabled", 1), true);
  assert.equal(quietReply(idle, { status: "open", userId: 3, queueId: null }, "disabled", 2), true);
  // No queue yet on a connection of several: the menu opens again.
  assert.equal(quietReply(idle, pending(null), "disabled", 2), false);
  const again = converse(idle, { type: "reply", text: "oi" }, context());
  assert.ok(again.actions.length > 0);
  // Hours to keep, or a menu open: the whole decision runs.
  assert.equal(quietReply(idle, pending(10), "company", 2), false);
  assert.equal(quietReply(idle, pending(10), "queue", 2), false);
  const menu = converse(idle, { type: "new", text: "oi" }, context()).state;
  assert.equal(quietReply(menu, pending(null), "disabled", 1), false);
  // What quietReply calls quiet, converse leaves as it was.
  const quiet = converse(idle, { type: "reply", text: "1" }, context({ ticket: pending(10) }));
  assert.deepEqual(quiet, { state: idle, actions: [] });
});
