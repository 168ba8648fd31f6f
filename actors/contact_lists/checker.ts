/**
 * The WhatsApp number check of a company's contact lists (issue #19): one actor per company
 * walks the items still unchecked (items.ts `pending`), one number per timer turn. Each check
 * waits for the connection's pacing slot (the limiter agents, the API and campaigns share), so
 * an import of thousands of numbers never goes out as a burst and never starves a live reply.
 * The checker runs apart from the items actor so a pacing wait never blocks list edits; the
 * server wakes it after every add (`wake` is idempotent), and its timer survives restarts.
 */
import { defineActor } from "../_runtime/actor.ts";
import { itemsActor, type ItemsState } from "./items.ts";
import { contactListPorts } from "./ports.ts";
import { log } from "../_runtime/log.ts";

const TIMER = "check";

export const checkerActor = defineActor({
  kind: "contact_list_checks",
  load(): Promise<Record<never, never>> {
    return Promise.resolve({});
  },
  handlers: {
    /** Arms the check loop unless it is already armed. */
    wake(ctx): void {
      if (ctx.timerDue(TIMER) === undefined) ctx.setTimer(TIMER, ctx.now, "tick");
    },

    /** Timer: checks the oldest unchecked number, then re-arms while any is left. */
    async tick(ctx): Promise<void> {
      const companyId = Number(ctx.id);
      const items = ctx.system.ref(itemsActor, companyId);
      const state = await items.peek<ItemsState>();
      const nextId = state.pending.values().next().value;
      if (nextId === undefined) return;
      const item = state.items.get(nextId)!;
      const ports = await contactListPorts(ctx.system);
      let valid: boolean;
      try {
        valid = await ports.checkNumber(companyId, item.number);
      } catch (error) {
        log.warn(`Contact list check of ${item.number} (company ${companyId}) failed:`, { error: String(error) });
        ctx.setTimer(TIMER, ctx.system.now() + ports.retryMs, "tick");
        return;
      }
      await items.ask("setValidity", { id: item.id, number: item.number, valid });
      ctx.setTimer(TIMER, ctx.system.now(), "tick");
    },
  },
});
