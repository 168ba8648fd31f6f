/**
 * The conversation actor: one per ticket (id `{companyId}:{ticketId}`), holding where the bot
 * is, which closed period's out-of-hours message was sent and the place in line last told
 * (domain/conversation.ts). Its mailbox is what keeps a customer's quick replies in order:
 * two messages of one conversation are decided one after the other, each on the state the
 * previous one left, and the state is durable before the actions run.
 */
import {
  type ConversationContext,
  type ConversationInput,
  type ConversationState,
  type ConversationStep,
  converse,
  newConversation,
  retellPosition,
} from "../../domain/conversation.ts";
import { defineActor } from "../_runtime/actor.ts";

/** KV key of a conversation's state. */
export const conversationKey = (companyId: number, ticketId: number): Deno.KvKey => ["conversation", companyId, ticketId];

/** The actor id of ticket `ticketId`'s conversation. */
export const conversationId = (companyId: number, ticketId: number) => `${companyId}:${ticketId}`;

/** What a conversation actor holds. */
export interface Held {
  companyId: number;
  ticketId: number;
  conversation: ConversationState;
}

export const conversationActor = defineActor({
  kind: "conversation",
  async load(kv, id): Promise<Held> {
    const [companyId, ticketId] = id.split(":").map(Number);
    const stored = await kv.get<ConversationState>(conversationKey(companyId, ticketId));
    return { companyId, ticketId, conversation: stored.value ?? newConversation() };
  },
  /** A new ticket's conversation: nothing decided yet. */
  empty(id): Held {
    const [companyId, ticketId] = id.split(":").map(Number);
    return { companyId, ticketId, conversation: newConversation() };
  },
  handlers: {
    /** Decides one customer message and stores the next state; replies with the actions. */
    step(ctx, arg: { input: ConversationInput; context: ConversationContext }): ConversationStep {
      const step = converse(ctx.state.conversation, arg.input, arg.context);
      if (JSON.stringify(step.state) !== JSON.stringify(ctx.state.conversation)) {
        ctx.state.conversation = step.state;
        ctx.set(conversationKey(ctx.state.companyId, ctx.state.ticketId), step.state);
      }
      return step;
    },

    /**
     * Records the place `n` in `queueId`; with `onlyIfBetter`, only when it is worth telling
     * again (retellPosition). Replies whether the customer should be told.
     */
    position(ctx, arg: { queueId: number; n: number; onlyIfBetter: boolean }): boolean {
      const last = ctx.state.conversation.position;
      if (arg.onlyIfBetter && !retellPosition(last, arg.queueId, arg.n)) return false;
      if (last?.queueId === arg.queueId && last.n === arg.n) return false;
      ctx.state.conversation = { ...ctx.state.conversation, position: { queueId: arg.queueId, n: arg.n } };
      ctx.set(conversationKey(ctx.state.companyId, ctx.state.ticketId), ctx.state.conversation);
      return true;
    },

    /** Ends the bot of the conversation (an agent took it over); replies whether one was running. */
    stopBot(ctx): boolean {
      if (ctx.state.conversation.bot === null) return false;
      ctx.state.conversation = { ...ctx.state.conversation, bot: null };
      ctx.set(conversationKey(ctx.state.companyId, ctx.state.ticketId), ctx.state.conversation);
      return true;
    },
  },
});
