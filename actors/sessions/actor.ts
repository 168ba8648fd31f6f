/**
 * The session actor of one connection (id `{companyId}:{whatsappId}`): applies the state
 * machine of state.ts, writes the status onto the connection record, publishes
 * `company-{id}-whatsappSession`, and arms the reconnect timer. (The queue menu of a
 * conversation moved to the conversation actor of its ticket: actors/conversations/.)
 */
import { isoText } from "../../domain/iso_date.ts";
import { defineActor } from "../_runtime/actor.ts";
import { companyChannel, splitForAdmins } from "../../domain/events.ts";
import { type Whatsapp, withoutQr } from "../../domain/whatsapp.ts";
import { whatsapps } from "../whatsapps/collection.ts";
import { sessionHost } from "./host.ts";
import { OPEN_TIMEOUT_MS, type SessionInput, type SessionState, sessionStep } from "./state.ts";
import { followDrop, forgetDrop, raiseDrop } from "./drops.ts";

/** KV key of a session's state. */
export const sessionKey = (companyId: number, whatsappId: number): Deno.KvKey => [
  "session",
  companyId,
  whatsappId,
];

/** Splits a session actor id. */
export function sessionIds(id: string): { companyId: number; whatsappId: number } {
  const [companyId, whatsappId] = id.split(":").map(Number);
  return { companyId, whatsappId };
}

/** The `session` part of a whatsappSession event. */
export function sessionView(w: Whatsapp) {
  return {
    id: w.id,
    name: w.name,
    number: w.number,
    status: w.status,
    statusEvo: w.statusEvo,
    qrcode: w.qrcode,
    qrcodeEvo: w.qrcodeEvo,
    retries: w.retries,
    updatedAt: isoText(w.updatedAt),
  };
}

export const sessionActor = defineActor({
  kind: "session",
  async load(kv, id): Promise<SessionState> {
    const { companyId, whatsappId } = sessionIds(id);
    const stored = await kv.get<SessionState>(sessionKey(companyId, whatsappId));
    return stored.value ?? {
      v: 1,
      companyId,
      whatsappId,
      dropped: false,
      qrCount: 0,
      retries: 0,
    };
  },
  handlers: {
    /** Applies one adapter report; replies with the new status (null when the record is gone). */
    async transition(ctx, input: SessionInput) {
      const { companyId, whatsappId } = ctx.state;
      const coll = whatsapps.in(ctx.system, companyId);
      const current = await coll.get(whatsappId);
      if (!current) return { status: null, stop: true };
      if (input.type === "openTimeout" && current.status !== "OPENING") return { status: current.status, stop: false };
      const step = sessionStep(ctx.state, current.status, input);
      const record = await coll.transact((view) => {
        const old = view.records.get(whatsappId);
        if (!old) return { reply: undefined };
        const next: Whatsapp = {
          ...old,
          status: step.record.status,
          qrcode: step.record.qrcode ?? old.qrcode,
          number: step.record.number ?? old.number,
          retries: step.record.retries,
          updatedAt: view.now,
        };
        // The Evolution engine reports its session in the spec's second pair of fields too.
        if (old.provider === "evolution") {
          next.statusEvo = next.status;
          next.qrcodeEvo = next.qrcode;
        }
        return { put: [next], reply: next };
      });
      if (!record) return { status: null, stop: true };
      Object.assign(ctx.state, step.state);
      followDrop(ctx, current.status, record.status, input);
      ctx.set(sessionKey(companyId, whatsappId), ctx.state);
      if (input.type === "opening") ctx.setTimer("opening", ctx.now + OPEN_TIMEOUT_MS, "openTimeout");
      else if (ctx.timerDue("opening") !== undefined) ctx.cancelTimer("opening");
      if (step.reconnectIn === null) {
        if (ctx.timerDue("reconnect") !== undefined) ctx.cancelTimer("reconnect");
      } else {
        ctx.setTimer("reconnect", ctx.now + step.reconnectIn, "reconnect");
      }
      // Only admins, who may pair the phone, get the QR codes (see splitForAdmins).
      const view = sessionView(record);
      const channel = companyChannel(companyId, "whatsappSession");
      for (
        const event of splitForAdmins(
          { companyId, channel, data: { action: "update", session: view, ...step.flags } },
          { action: "update", session: withoutQr(view), ...step.flags },
        )
      ) ctx.emit(event);
      return { status: record.status, stop: step.stop };
    },

    /** Timer: the adapter never left OPENING; the live side reports `openTimeout`. */
    openTimeout(ctx) {
      const { companyId, whatsappId } = ctx.state;
      const host = sessionHost(ctx.system);
      if (host) setTimeout(() => host.timedOut(companyId, whatsappId), 0);
    },

    /** Timer: try the adapter again. */
    reconnect(ctx) {
      const { companyId, whatsappId } = ctx.state;
      const host = sessionHost(ctx.system);
      if (host) setTimeout(() => host.connect(companyId, whatsappId), 0);
    },

    /** Cancels a pending reconnect and the drop alert (a deleted connection). */
    cancelReconnect(ctx) {
      if (ctx.timerDue("reconnect") !== undefined) ctx.cancelTimer("reconnect");
      forgetDrop(ctx);
      ctx.set(sessionKey(ctx.state.companyId, ctx.state.whatsappId), ctx.state);
    },

    /**
     * Timer, the grace period after the connection left CONNECTED (drops.ts): tells the
     * company's admins if it is still down, once per drop.
     */
    async dropAlert(ctx, arg: { droppedAt: number }) {
      const { companyId, whatsappId } = ctx.state;
      const record = await whatsapps.in(ctx.system, companyId).get(whatsappId);
      if (raiseDrop(ctx, record, arg.droppedAt)) ctx.set(sessionKey(companyId, whatsappId), ctx.state);
    },
  },
});
