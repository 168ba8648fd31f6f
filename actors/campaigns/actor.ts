/**
 * The campaigns of one company (id = company id): records and settings in memory, and the
 * sending engine, one durable actor timer per running campaign (`run{id}`).
 *
 * The exactly-once guarantee, precisely:
 * - A step first CLAIMS the next contacts: it writes their shipping rows (variant, rendered
 *   text, connection, all chosen once) and the campaign's `claimed` list, and arms the next
 *   step; these commit together before anything is sent.
 * - The next step SENDS the claimed rows, each with the deterministic key
 *   `cmp-{company}-{campaign}-{row}-{c|m}` (c = confirmation, m = message), and marks them
 *   (`confirmationRequestedAt` / `deliveredAt`) in its commit.
 * - A crash before the claim commit: nothing was claimed or sent, the previous step's timer
 *   is delivered again. A crash after the claim but before the send: the claimed rows are
 *   sent by the re-delivered step. A crash after the provider accepted but before the mark
 *   commits: the re-delivered step sends the same key again, and what happens then is the
 *   channel's (below). No contact is ever skipped; "exactly once" holds where the channel
 *   recognises the repeat:
 *   - simulator: exactly once. The phone keeps the keys it accepted durably and answers a
 *     repeat with the first id without delivering it (server/channels/simulator.ts).
 *   - Baileys: the key becomes the WhatsApp message id (`baileysMessageId`, a hash of the
 *     key), so the repeat carries the same id as the first send and WhatsApp takes it as the
 *     same message; tested up to the id on the wire (tests/channel_idempotency_test.ts), the
 *     recipient's de-duplication by id is WhatsApp's and cannot be tested here.
 *   - Cloud API: Graph has no idempotency header; the adapter's ledger per key
 *     (server/channels/cloudapi_keyed.ts) is completed by Graph's answer or by the status
 *     webhook that echoes the key (`biz_opaque_callback_data`). A repeat with a known wamid is
 *     not sent; a repeat of an unrecorded attempt waits up to 60 s for that status (the row
 *     stays claimed and is retried every 5 s) and is sent again only if none comes: at least
 *     once when our webhook misses Meta's status for longer than that.
 *   - Evolution API: no client-chosen id or key in its send call: at least once in that
 *     window (a repeat is delivered again).
 * - Contacts are taken in ascending entry id after `cursor`: a stop keeps the cursor, and a
 *   resumed campaign goes on after it, sending the rows still claimed first.
 * - A group list's members (group_audience.ts) are taken when the campaign starts, in the
 *   commit that makes it EM_ANDAMENTO, and follow the list's entries under the same cursor.
 *
 * The report's counts (#19) are kept, not counted: `engine.tally` holds how many rows each
 * report filter shows (domain/campaign_report.ts, the same predicates as the cards), changed
 * by `putRow` with every row write and stored with the record in the same handler, so the
 * tally and the rows commit in one atomic and a crash leaves them equal. A record stored
 * before the tally existed gets it rebuilt by one scan of its rows in `load` (stored by the
 * record's next write, or by `saveTally` on the report's first read). `rowIndex` (memory only) is the rows'
 * ids in key order, so a report page with no filter reads just its slice (report.ts).
 */
import { defineActor } from "../_runtime/actor.ts";
import type { ActorContext } from "../_runtime/actor.ts";
import { companyChannel } from "../../domain/events.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import {
  type Campaign,
  type CampaignInput,
  type CampaignSettings,
  type CampaignShipping,
  CAMPAIGN_TEXTS,
  campaignDelayMs,
  campaignView,
  canTransition,
  DEFAULT_CAMPAIGN_SETTINGS,
  isDeletable,
  isEditable,
  pickVariant,
  renderCampaignMessage,
  variants,
} from "../../domain/campaign.ts";
import { emptyTally, type ShippingTally, tallyRow, tallyRows } from "../../domain/campaign_report.ts";
import { awaitingKey, campaignCounterKey, campaignKey, campaignSettingsKey, shippingKey } from "./keys.ts";
import { shippingRows } from "./rows.ts";
import { campaignPorts, type CampaignPorts, type ContactListEntry } from "./ports.ts";
import { chunkCount, GROUP_ROW_BASE, groupChunkKey, groupEntriesAfter, memberChunks } from "./group_audience.ts";
import { companySettings } from "../platform/lookup.ts";
import { companyTimeZone } from "../../domain/closed_period.ts";
import { phoneProblem } from "../../domain/phone_number.ts";
import { log } from "../_runtime/log.ts";

/** The engine's position in a campaign (kept beside the record). */
export interface CampaignEngine {
  /** The last contact-list entry id claimed. */
  cursor: number;
  /** Rows claimed for their first message (confirmation or campaign message), not yet sent. */
  claimed: number[];
  /** Rows confirmed by the contact whose campaign message is not yet sent. */
  confirmed: number[];
  /** Messages sent in this run (batch pauses count from it). */
  sent: number;
  /** Next connection of the rotation. */
  turn: number;
  /** Rows per report filter (module doc); carried over when the engine restarts. */
  tally: ShippingTally;
  /**
   * The audience fixed when the campaign started (#41): the list's entries up to `lastEntryId`
   * (a contact added later is not sent to) and how many were valid then, which the report
   * reads while the campaign runs; a finished one reads its rows (`campaignAudience`).
   */
  audience?: { lastEntryId: number; valid: number };
  /**
   * Set when the engine restarted over rows already written (a contact-list change): a claim
   * may then replace an existing row (the old list's entry again), so it reads it first.
   */
  reclaim?: boolean;
  /** Members in the group list's snapshot (group_audience.ts); absent until the start takes it. */
  groupSize?: number;
  /**
   * When the next message may go (the wait after the last one sent): a confirmation that
   * comes in while no step is armed arms it then, not at once, so replies that trickle in
   * one by one keep the batch pause as replies that come together do.
   */
  nextAt?: number;
}

export interface StoredCampaign extends Campaign {
  engine: CampaignEngine;
}

export interface CampaignsState {
  companyId: number;
  records: Map<number, StoredCampaign>;
  counter: number;
  settings: CampaignSettings;
  /**
   * Row ids per campaign in key order (ascending), built on a report's first read (report.ts)
   * and kept by every claim afterwards; memory only, gone with the activation.
   */
  rowIndex: Map<number, number[]>;
  /** Campaigns whose index is being built: ids claimed meanwhile, merged into the scan's. */
  indexing: Map<number, Set<number>>;
  /**
   * Rows written by handlers whose atomic is not durable yet, by `campaignId:rowId`: a handler
   * reads a row here first (`readRow`), since KV still holds the older copy while the write is
   * in flight (a confirmation handled just before a due step, whose message would then go out
   * over a stale row, and the tally would move from the wrong one). Dropped once durable.
   */
  unsettled: Map<string, CampaignShipping>;
  /** Campaigns whose tally `load` rebuilt and no write has stored yet (`saveTally`). */
  untallied: Set<number>;
}

type Ctx = ActorContext<CampaignsState>;

/** Contacts claimed per step when pacing is off (time scale 0); paced campaigns claim one. */
const UNPACED_BATCH = 25;
/** Wait before trying a failed send again (connection down…); the campaign stays running. */
const RETRY_MS = 5000;

const timerId = (id: number) => `run${id}`;

/**
 * The contacts a campaign's report counts (#41): a finished campaign's own rows (what it
 * had, the failed included), a started one's audience fixed at its start, else the list's
 * valid contacts now (`liveValid`). Adding a contact to the list never changes a finished
 * campaign's "3 de 3".
 */
export function campaignAudience(c: StoredCampaign, liveValid: number): number {
  if (c.status === "FINALIZADA") return c.engine.tally.all;
  // The group list's members count once taken (at the start: group_audience.ts).
  return (c.engine.audience?.valid ?? liveValid) + (c.engine.groupSize ?? 0);
}

export const campaignMissing = (id: number | string) => notFound("ERR_NOT_FOUND", `Campaign ${id} does not exist`);

const freshEngine = (tally = emptyTally()): CampaignEngine => ({ cursor: 0, claimed: [], confirmed: [], sent: 0, turn: 0, tally });

/**
 * Writes row `after` (replacing `before`, null for a new row) and moves `engine.tally` with
 * it; the caller stores the campaign with that engine in the same handler (module doc).
 */
function putRow(ctx: Ctx, c: Campaign, engine: CampaignEngine, before: CampaignShipping | null, after: CampaignShipping): void {
  if (before) tallyRow(engine.tally, before, -1);
  tallyRow(engine.tally, after, 1);
  ctx.set(shippingKey(c.companyId, c.id, after.id), after);
  const unsettled = ctx.state.unsettled;
  const key = `${c.id}:${after.id}`;
  unsettled.set(key, after);
  ctx.onDurable(() => {
    if (unsettled.get(key) === after) unsettled.delete(key);
  });
  if (before) return;
  ctx.state.indexing.get(c.id)?.add(after.id);
  const ids = ctx.state.rowIndex.get(c.id);
  if (ids) insertSorted(ids, after.id);
}

/** Row `rowId` of campaign `c` as this actor last wrote it (see `unsettled`), else as stored. */
async function readRow(ctx: Ctx, c: Campaign, rowId: number): Promise<CampaignShipping | null> {
  return ctx.state.unsettled.get(`${c.id}:${rowId}`) ??
    (await ctx.kv.get<CampaignShipping>(shippingKey(c.companyId, c.id, rowId))).value;
}

/** Inserts `id` into ascending `ids` unless there (claims append; after a list change they may not). */
function insertSorted(ids: number[], id: number): void {
  if (ids.length === 0 || ids[ids.length - 1] < id) {
    ids.push(id);
    return;
  }
  let lo = 0, hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  if (ids[lo] !== id) ids.splice(lo, 0, id);
}

/** Deletes the group list's snapshot of `c` (its engine's `groupSize` members), if any. */
function dropGroupSnapshot(ctx: Ctx, c: StoredCampaign): void {
  for (let chunk = 0; chunk < chunkCount(c.engine.groupSize ?? 0); chunk++) ctx.delete(groupChunkKey(c.companyId, c.id, chunk));
}

/** Up to `limit` audience entries after `afterId`: the contact list's, then the group's members. */
async function audienceAfter(
  ctx: Ctx,
  ports: CampaignPorts,
  c: StoredCampaign,
  engine: CampaignEngine,
  afterId: number,
  limit: number,
): Promise<ContactListEntry[]> {
  const groupSize = engine.groupSize ?? 0;
  if (c.contactListId !== null && afterId < GROUP_ROW_BASE) {
    // The list's entries added after the start are not the campaign's (#41: CampaignEngine.audience).
    const until = engine.audience?.lastEntryId ?? Infinity;
    const entries = (await ports.contactLists.entriesAfter(c.companyId, c.contactListId, afterId, limit))
      .filter((item) => item.id <= until);
    if (entries.length > 0) return entries;
  }
  if (c.groupListId === null || groupSize === 0) return [];
  return await groupEntriesAfter(ctx.kv, c.companyId, c.id, groupSize, Math.max(afterId, GROUP_ROW_BASE), limit);
}

/** The deterministic key of one send (see the module doc). */
export function sendKey(c: Pick<Campaign, "companyId" | "id">, rowId: number, kind: "c" | "m"): string {
  return `cmp-${c.companyId}-${c.id}-${rowId}-${kind}`;
}

function publish(ctx: Ctx, c: StoredCampaign, action: "create" | "update"): void {
  ctx.emit({
    companyId: c.companyId,
    channel: companyChannel(c.companyId, "campaign"),
    data: { action, record: campaignView(c), id: c.id },
    scope: { kind: "company" },
  });
}

function store(ctx: Ctx, c: StoredCampaign, action: "create" | "update"): void {
  ctx.state.records.set(c.id, c);
  ctx.state.untallied.delete(c.id);
  ctx.set(campaignKey(c.companyId, c.id), c);
  publish(ctx, c, action);
}

/** PROGRAMADA arms the start at scheduledAt (now if past); anything else disarms it. */
function armStart(ctx: Ctx, c: StoredCampaign): void {
  if (c.status === "PROGRAMADA") ctx.setTimer(timerId(c.id), Math.max(c.scheduledAt ?? ctx.now, ctx.now), "start", { id: c.id });
  else if (ctx.timerDue(timerId(c.id)) !== undefined) ctx.cancelTimer(timerId(c.id));
}

function need(ctx: Ctx, id: number): StoredCampaign {
  const c = ctx.state.records.get(id);
  if (!c) throw campaignMissing(id);
  return c;
}

export const campaignsActor = defineActor({
  kind: "campaigns",
  async load(kv, id): Promise<CampaignsState> {
    const companyId = Number(id);
    const [entries, counter, settings] = await Promise.all([
      Array.fromAsync(kv.list<StoredCampaign>({ prefix: ["campaign", companyId] })),
      kv.get<number>(campaignCounterKey(companyId)),
      kv.get<CampaignSettings>(campaignSettingsKey(companyId)),
    ]);
    const records = new Map(entries.map((e) => [e.value.id, e.value]));
    // A record from before the kept tally: one scan of its rows (module doc).
    const untallied = new Set<number>();
    for (const c of records.values()) {
      if (c.engine.tally) continue;
      c.engine = { ...c.engine, tally: tallyRows(await shippingRows(kv, companyId, c.id)) };
      untallied.add(c.id);
    }
    return {
      companyId,
      records,
      rowIndex: new Map(),
      indexing: new Map(),
      unsettled: new Map(),
      untallied,
      counter: Math.max(counter.value ?? 0, 0, ...records.keys()),
      settings: settings.value ?? DEFAULT_CAMPAIGN_SETTINGS,
    };
  },
  handlers: {
    create(ctx, arg: { input: CampaignInput; mediaPath?: string | null; mediaName?: string | null }): Campaign {
      const id = ++ctx.state.counter;
      ctx.set(campaignCounterKey(ctx.state.companyId), id);
      const c: StoredCampaign = {
        ...arg.input,
        id,
        companyId: ctx.state.companyId,
        completedAt: null,
        mediaPath: arg.mediaPath ?? null,
        mediaName: arg.mediaName ?? null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        engine: freshEngine(),
      };
      store(ctx, c, "create");
      armStart(ctx, c);
      return c;
    },

    /** Saves the dialog (editable states only); a cancelled campaign saved again resumes. */
    update(ctx, arg: { id: number; input: CampaignInput }): Campaign {
      const before = need(ctx, arg.id);
      if (!isEditable(before, ctx.now)) {
        throw new AppError("ERR_CONFLICT", { status: 409, message: CAMPAIGN_TEXTS.notEditable });
      }
      const after: StoredCampaign = { ...before, ...arg.input, updatedAt: ctx.now };
      if (before.contactListId !== after.contactListId || before.groupListId !== after.groupListId) {
        // Another audience: start over it (the group's members are taken again at the start).
        dropGroupSnapshot(ctx, before);
        after.engine = { ...freshEngine({ ...before.engine.tally }), reclaim: before.engine.reclaim || before.engine.tally.all > 0 };
      }
      store(ctx, after, "update");
      armStart(ctx, after);
      return after;
    },

    /** Attaches or removes the media file (editable states only); replies with the old file. */
    setMedia(ctx, arg: { id: number; mediaPath: string | null; mediaName: string | null }): { before: string | null; campaign: Campaign } {
      const c = need(ctx, arg.id);
      if (!isEditable(c, ctx.now)) throw new AppError("ERR_CONFLICT", { status: 409, message: CAMPAIGN_TEXTS.notEditable });
      const after = { ...c, mediaPath: arg.mediaPath, mediaName: arg.mediaName, updatedAt: ctx.now };
      store(ctx, after, "update");
      return { before: c.mediaPath, campaign: after };
    },

    /** Deletes a campaign that is not running, its timer and (in the host) its rows. */
    remove(ctx, arg: { id: number }): Campaign {
      const c = need(ctx, arg.id);
      if (!isDeletable(c)) throw new AppError("ERR_CONFLICT", { status: 409, message: CAMPAIGN_TEXTS.notEditable });
      ctx.state.records.delete(c.id);
      ctx.state.rowIndex.delete(c.id);
      ctx.state.indexing.delete(c.id);
      ctx.delete(campaignKey(c.companyId, c.id));
      dropGroupSnapshot(ctx, c);
      if (ctx.timerDue(timerId(c.id)) !== undefined) ctx.cancelTimer(timerId(c.id));
      ctx.emit({
        companyId: c.companyId,
        channel: companyChannel(c.companyId, "campaign"),
        data: { action: "delete", id: c.id },
        scope: { kind: "company" },
      });
      return c;
    },

    /** The user's stop (§4): only EM_ANDAMENTO, which becomes CANCELADA. */
    cancel(ctx, arg: { id: number }): Campaign {
      const c = need(ctx, arg.id);
      if (!canTransition(c.status, "CANCELADA")) {
        throw new AppError("ERR_CONFLICT", { status: 409, message: CAMPAIGN_TEXTS.notRunning });
      }
      const after: StoredCampaign = { ...c, status: "CANCELADA", updatedAt: ctx.now };
      store(ctx, after, "update");
      armStart(ctx, after);
      return after;
    },

    /** Resumes a cancelled campaign now (POST /campaigns/{id}/restart). */
    restart(ctx, arg: { id: number }): Campaign {
      const c = need(ctx, arg.id);
      if (c.status !== "CANCELADA") throw new AppError("ERR_CONFLICT", { status: 409, message: CAMPAIGN_TEXTS.notResumable });
      const after: StoredCampaign = { ...c, status: "PROGRAMADA", scheduledAt: ctx.now, updatedAt: ctx.now };
      store(ctx, after, "update");
      armStart(ctx, after);
      return after;
    },

    /**
     * First step of building campaign `id`'s row index (report.ts `rowIndexOf`): from here on
     * claims are noted, and the reply (released once every earlier write of this actor is
     * durable) tells the caller to scan the rows. False when built or being built already.
     */
    indexStart(ctx, arg: { id: number }): boolean {
      if (!ctx.state.records.has(arg.id) || ctx.state.rowIndex.has(arg.id) || ctx.state.indexing.has(arg.id)) return false;
      ctx.state.indexing.set(arg.id, new Set());
      return true;
    },

    /** Second step: the scanned ids plus those claimed since `indexStart` become the index (null: the scan failed). */
    indexDone(ctx, arg: { id: number; ids: number[] | null }): void {
      const claimed = ctx.state.indexing.get(arg.id);
      if (!claimed) return;
      ctx.state.indexing.delete(arg.id);
      if (!arg.ids || !ctx.state.records.has(arg.id)) return;
      ctx.state.rowIndex.set(arg.id, [...new Set([...arg.ids, ...claimed])].sort((a, b) => a - b));
    },

    /**
     * Stores the tally `load` rebuilt for campaign `id` (the report asks on its first read),
     * so a finished campaign of an older store is scanned once, not at every activation.
     */
    saveTally(ctx, arg: { id: number }): void {
      const c = ctx.state.records.get(arg.id);
      if (!c || !ctx.state.untallied.delete(arg.id)) return;
      ctx.set(campaignKey(c.companyId, c.id), c);
    },

    saveSettings(ctx, settings: CampaignSettings): CampaignSettings {
      ctx.state.settings = settings;
      ctx.set(campaignSettingsKey(ctx.state.companyId), settings);
      return settings;
    },

    /**
     * Timer: scheduledAt has come; the audience is fixed now (see CampaignEngine.audience). A
     * group list's members are taken first (once per audience, group_audience.ts); when no
     * connection can tell them now, the start waits RETRY_MS.
     */
    async start(ctx, arg: { id: number }): Promise<void> {
      const c = ctx.state.records.get(arg.id);
      if (!c || c.status !== "PROGRAMADA") return;
      const ports = await campaignPorts(ctx.system);
      const { contactLists } = ports;
      const engine: CampaignEngine = { ...c.engine, sent: 0 };
      // A resumed campaign keeps the audience of its first start.
      if (!engine.audience && c.contactListId !== null && contactLists.lastEntryId) {
        engine.audience = {
          lastEntryId: await contactLists.lastEntryId(c.companyId, c.contactListId),
          valid: await contactLists.validCount(c.companyId, c.contactListId),
        };
      }
      if (c.groupListId !== null && engine.groupSize === undefined) {
        let members: { number: string; name: string }[];
        try {
          members = await ports.groupLists.members(c.companyId, c.groupListId, c.whatsappIds, c.contactListId);
        } catch (error) {
          log.warn(`Campaign ${c.id} could not read group ${c.groupListId}:`, { error: String(error) });
          ctx.setTimer(timerId(c.id), ctx.system.now() + RETRY_MS, "start", { id: c.id });
          return;
        }
        memberChunks(members).forEach((chunk, i) => ctx.set(groupChunkKey(c.companyId, c.id, i), chunk));
        engine.groupSize = members.length;
      }
      const after: StoredCampaign = { ...c, status: "EM_ANDAMENTO", updatedAt: ctx.system.now(), engine };
      store(ctx, after, "update");
      ctx.setTimer(timerId(c.id), ctx.system.now(), "step", { id: c.id });
    },

    /**
     * A positive confirmation reply for row `rowId` (inbound hook): queue its campaign message.
     * The row is read here, not by the hook: a reply read before an earlier one was handled
     * would otherwise confirm (and send) twice, and the tally must move from the row it counted.
     */
    async confirmed(ctx, arg: { id: number; rowId: number; number: string }): Promise<boolean> {
      const c = ctx.state.records.get(arg.id);
      if (!c || c.engine.confirmed.includes(arg.rowId)) return false;
      const row = await readRow(ctx, c, arg.rowId);
      if (!row || row.confirmationRequestedAt === null || row.confirmedAt !== null) return false;
      const engine: CampaignEngine = { ...c.engine, tally: { ...c.engine.tally }, confirmed: [...c.engine.confirmed, arg.rowId] };
      putRow(ctx, c, engine, row, { ...row, confirmedAt: ctx.now });
      ctx.delete(awaitingKey(c.companyId, arg.number));
      const after: StoredCampaign = { ...c, engine };
      store(ctx, after, "update");
      if (ctx.timerDue(timerId(c.id)) === undefined) {
        ctx.setTimer(timerId(c.id), Math.max(ctx.now, c.engine.nextAt ?? 0), "step", { id: c.id });
      }
      return true;
    },

    /**
     * Timer: sends what earlier steps claimed, then claims the next contacts (module doc).
     * Paced (time scale above 0): one message per step, a confirmed contact's first, and the
     * next contact is claimed only once the claimed one went out, so every message, the
     * confirmed ones included, is followed by the settings' wait (up to messageInterval, or
     * greaterInterval after every longerIntervalAfter). #19: the first step's zero wait used
     * to claim 25 contacts that the next step sent back to back under a 600 s pause.
     * Unpaced (time scale 0: bench, crash test): everything claimed goes out, 25 a step.
     */
    async step(ctx, arg: { id: number }): Promise<void> {
      const c = ctx.state.records.get(arg.id);
      if (!c) return;
      const ports = await campaignPorts(ctx.system);
      const paced = ports.timeScale !== 0;
      const engine: CampaignEngine = { ...c.engine, tally: { ...c.engine.tally }, claimed: [...c.engine.claimed], confirmed: [...c.engine.confirmed] };
      const running = c.status === "EM_ANDAMENTO";
      // Confirmed rows get their message whatever the status: the contact asked for it.
      const queues: Array<["c" | "m", number[]]> = [["m", engine.confirmed], ...(running ? [["c", engine.claimed] as ["c", number[]]] : [])];
      const budget = paced ? 1 : Infinity;
      let sentNow = 0;
      for (const [queue, rows] of queues) {
        while (rows.length > 0 && sentNow < budget) {
          const rowId = rows[0];
          const row = await readRow(ctx, c, rowId);
          if (!row) {
            rows.shift();
            continue;
          }
          // No WhatsApp account can have this number (#41): it fails, it is never "delivered".
          const invalid = phoneProblem(row.number);
          if (invalid) {
            putRow(ctx, c, engine, row, { ...row, error: invalid });
            rows.shift();
            continue;
          }
          const asksConfirmation = queue === "c" && c.confirmation && row.confirmationMessage !== null;
          const kind = asksConfirmation ? "c" : "m";
          let outcome: { providerId: string } | { failed: string };
          try {
            outcome = await ports.send({
              companyId: c.companyId,
              whatsappId: row.whatsappId,
              number: row.number,
              name: row.name,
              body: asksConfirmation ? row.confirmationMessage! : row.message,
              media: !asksConfirmation && c.mediaPath ? { path: c.mediaPath, name: c.mediaName ?? c.mediaPath } : null,
              idempotencyKey: sendKey(c, rowId, kind),
              ticket: c.openTicket
                ? { open: true, status: c.statusTicket, queueId: c.queueId, userId: c.userId, tagId: c.tagListId ?? c.tagId }
                : null,
            });
          } catch (error) {
            // Not sent (connection down…): keep the row claimed and try again later.
            log.warn(`Campaign ${c.id} send to ${row.number} failed:`, { error: String(error) });
            const after: StoredCampaign = { ...c, engine };
            store(ctx, after, "update");
            ctx.setTimer(timerId(c.id), ctx.now + RETRY_MS, "step", { id: c.id });
            return;
          }
          if ("failed" in outcome) {
            // Never sendable (the file is gone): the row counts as failed, the campaign goes on.
            putRow(ctx, c, engine, row, { ...row, error: outcome.failed });
            rows.shift();
            continue;
          }
          const now = ctx.system.now();
          const marked: CampaignShipping = asksConfirmation ? { ...row, confirmationRequestedAt: now } : { ...row, deliveredAt: now };
          putRow(ctx, c, engine, row, marked);
          if (asksConfirmation) ctx.set(awaitingKey(c.companyId, row.number), { campaignId: c.id, rowId });
          rows.shift();
          engine.sent++;
          sentNow++;
        }
      }
      // The wait after what this step sent; nothing sent, nothing to wait for (the timer that
      // brought this step already held the last pause).
      const delay = sentNow > 0 ? campaignDelayMs(ctx.state.settings, engine.sent, Math.random(), ports.timeScale) : 0;
      if (sentNow > 0) engine.nextAt = ctx.system.now() + delay;
      const next = () => ctx.setTimer(timerId(c.id), ctx.system.now() + delay, "step", { id: c.id });
      if (!running) {
        store(ctx, { ...c, engine }, "update");
        if (engine.confirmed.length > 0) next();
        return;
      }
      // Claim the next contacts (one when paced) once the claimed ones went out.
      const want = engine.claimed.length > 0 ? 0 : paced ? 1 : UNPACED_BATCH;
      let claimedNow = 0;
      let exhausted = false;
      const options = variants(c);
      const when = { now: ctx.system.now(), timeZone: companyTimeZone(await companySettings(ctx.system, c.companyId)) };
      while (claimedNow < want) {
        const list = await audienceAfter(ctx, ports, c, engine, engine.cursor, UNPACED_BATCH);
        if (list.length === 0) {
          exhausted = true;
          break;
        }
        for (const item of list) {
          if (claimedNow >= want) break;
          engine.cursor = item.id;
          if (item.isWhatsappValid === false || options.length === 0) continue;
          const v = options[pickVariant(options.length, Math.random())];
          const to = { name: item.name, number: item.number, email: item.email };
          const row: CampaignShipping = {
            id: item.id,
            campaignId: c.id,
            number: item.number,
            name: item.name,
            email: item.email,
            contactId: null,
            whatsappId: c.whatsappIds[engine.turn++ % c.whatsappIds.length],
            slot: v.slot,
            message: renderCampaignMessage(v.message, to, ctx.state.settings.variables, when),
            confirmationMessage: c.confirmation ? renderCampaignMessage(v.confirmationMessage, to, ctx.state.settings.variables, when) : null,
            confirmationRequestedAt: null,
            confirmedAt: null,
            deliveredAt: null,
            error: null,
          };
          const old = engine.reclaim ? await readRow(ctx, c, item.id) : null;
          // A number no WhatsApp account can have (stored before #41's checks) is written as
          // failed at once: the report counts it, and nothing is sent to it.
          const invalid = phoneProblem(row.number);
          putRow(ctx, c, engine, old, invalid ? { ...row, error: invalid } : row);
          if (invalid) continue;
          engine.claimed.push(item.id);
          claimedNow++;
        }
      }
      if (exhausted && engine.claimed.length === 0) {
        store(ctx, { ...c, engine, status: "FINALIZADA", completedAt: ctx.system.now(), updatedAt: ctx.system.now() }, "update");
        if (engine.confirmed.length > 0) next();
        return;
      }
      store(ctx, { ...c, engine, updatedAt: ctx.system.now() }, "update");
      next();
    },
  },
});
