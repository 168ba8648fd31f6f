/**
 * Bot sessions (issue #17): the conversation of one ticket with a queue's external bot
 * (Typebot; n8n keeps no session of its own but uses the same record). One actor per ticket
 * holds the session id Typebot gave and the choices it offered, persisted under
 * `["bot_session", companyId, ticketId]`, so a restart continues the same Typebot session.
 *
 * The actor also serializes a ticket's turns: a customer's quick second message waits until the
 * first one's call and answers are done, so replies reach the customer in order and
 * continueChat is never called twice at once for one session. The turn itself (HTTP calls,
 * messages to the customer, notes for the agent) is a port bound by the server
 * (`bindBotTurns`); it never throws, and answers the session as it is after the turn.
 *
 * A session is dropped 24 h after its last turn (an actor timer): Typebot's own sessions
 * expire, and a customer writing again a day later starts the flow afresh.
 */
import { defineActor } from "../_runtime/actor.ts";
import type { ActorSystem } from "../_runtime/system.ts";

/** How long a session outlives its last turn. */
export const BOT_SESSION_TTL_MS = 24 * 3600 * 1000;

const EXPIRY_TIMER = "expire";

/** The bot conversation of one ticket. */
export interface BotSession {
  v: 1;
  service: "typebot" | "n8n" | "ai";
  /** The queue whose bot runs (a move to another bot queue starts another session). */
  queueId: number;
  /** running: customer replies go to the bot; ended: the flow ended or failed, agents take over. */
  status: "running" | "ended";
  /** Typebot's session id (null for n8n). */
  sessionId: string | null;
  /** The items of the choice the bot last offered (a numeric reply stands for one). */
  choices: string[];
  updatedAt: number;
}

/** One turn: the ticket entered a bot queue (`text` null) or its customer wrote `text`. */
export interface BotTurnInput {
  companyId: number;
  ticketId: number;
  queueId: number;
  service: BotSession["service"];
  text: string | null;
}

/** What a turn did: the session after it (null: none) and whether the message went to the bot. */
export interface BotTurnResult {
  session: BotSession | null;
  handled: boolean;
}

/** Runs one turn against the service; see BotTurnResult. Never throws. */
export type BotTurnPort = (session: BotSession | null, input: BotTurnInput) => Promise<BotTurnResult>;

const ports = new WeakMap<ActorSystem, BotTurnPort>();

/** Binds the turn port of `system` (idempotent; the server binds it before its first turn). */
export function bindBotTurns(system: ActorSystem, port: BotTurnPort): void {
  if (!ports.has(system)) ports.set(system, port);
}

/** KV key of a ticket's bot session. */
export function botSessionKey(companyId: number, ticketId: number): Deno.KvKey {
  return ["bot_session", companyId, ticketId];
}

interface BotSessionState {
  companyId: number;
  ticketId: number;
  session: BotSession | null;
}

function ids(id: string): { companyId: number; ticketId: number } {
  const [companyId, ticketId] = id.split(":").map(Number);
  return { companyId, ticketId };
}

export const botSessionActor = defineActor({
  kind: "bot-session",
  async load(kv, id): Promise<BotSessionState> {
    const { companyId, ticketId } = ids(id);
    const stored = await kv.get<BotSession>(botSessionKey(companyId, ticketId));
    return { companyId, ticketId, session: stored.value };
  },
  idleMs: 60_000,
  handlers: {
    /** Runs one turn through the bound port and keeps the session it answers. */
    async turn(ctx, input: BotTurnInput): Promise<BotTurnResult> {
      const port = ports.get(ctx.system);
      if (!port) throw new Error("Bot turns are not bound to this actor system: call bindBotTurns");
      const before = ctx.state.session;
      const result = await port(before, input);
      if (result.session !== before) keep(ctx, result.session);
      return result;
    },
    /** Forgets the session (an agent took the ticket, or it left the bot's queue). */
    drop(ctx): boolean {
      if (!ctx.state.session) return false;
      keep(ctx, null);
      return true;
    },
    /** The expiry timer: drops a session idle for BOT_SESSION_TTL_MS. */
    expire(ctx): void {
      if (ctx.state.session) keep(ctx, null);
    },
  },
});

/** Sets the state and its key, and (re-)arms or cancels the expiry timer, in one commit. */
function keep(
  ctx: Parameters<typeof botSessionActor.handlers.drop>[0],
  session: BotSession | null,
): void {
  const s = ctx.state;
  s.session = session;
  const key = botSessionKey(s.companyId, s.ticketId);
  if (session) {
    ctx.set(key, session);
    ctx.setTimer(EXPIRY_TIMER, ctx.now + BOT_SESSION_TTL_MS, "expire");
  } else {
    ctx.delete(key);
    ctx.cancelTimer(EXPIRY_TIMER);
  }
}

/** The bot-session actor of a ticket. */
export function botSessionRef(system: ActorSystem, companyId: number, ticketId: number) {
  return system.ref(botSessionActor, `${companyId}:${ticketId}`);
}
