/**
 * Chat ids of one company (id = company id): the per-company counter the spec's numeric
 * `chat.id` comes from (DESIGN §3), advanced one at a time through this mailbox.
 */
import { defineActor } from "../_runtime/actor.ts";
import { chatCounterKey } from "./keys.ts";

export const chatIdsActor = defineActor({
  kind: "chat_ids",
  async load(kv, id): Promise<{ companyId: number; counter: number }> {
    const companyId = Number(id);
    return { companyId, counter: (await kv.get<number>(chatCounterKey(companyId))).value ?? 0 };
  },
  handlers: {
    /** The next unused chat id. */
    next(ctx): number {
      const id = ++ctx.state.counter;
      ctx.set(chatCounterKey(ctx.state.companyId), id);
      return id;
    },
  },
});
