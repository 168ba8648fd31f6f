/**
 * Campaigns (spec 002 §2.2–2.5, §7): list with search and paging, create, read, update,
 * delete, stop (cancel), resume (restart, ours: a cancelled campaign goes on where it
 * stopped), media upload/remove, the report data, and the company's campaign settings.
 * Gates on every route: the plan flag useCampaigns, the admin/supervisor check
 * `campaigns:view` (spec 000 §2 menu gates) and the company's `campaignsEnabled` setting, the
 * source of the browser's cshow flag (002 §2.1; islands/lib/campaign_flag.ts).
 */
import { Hono } from "hono";
import {
  campaignAudience,
  campaignMissing,
  campaignPorts,
  campaignsList,
  campaignsOf,
  campaignSettingsOf,
  getCampaign,
  saveRebuiltTally,
  shippingPageOf,
  type StoredCampaign,
} from "../../actors/campaigns/mod.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { CampaignInput, CampaignSettingsInput, campaignCounts, campaignEstimateMs, campaignView, settingsRows } from "../../domain/campaign.ts";
import { CampaignReportQuery } from "../../domain/campaign_report.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { getContact } from "../../actors/contacts/mod.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import { MSG } from "../../domain/text.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { requireCampaignsEnabled, requirePlan } from "../auth/plan_gate.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { requireCompanyRefs } from "./company_refs.ts";
import { deleteMediaFiles, saveMediaFile } from "./media_links.ts";
import { readUpload } from "./upload_field.ts";

/** The gates of every campaign route. */
function gates() {
  return [requireAuth(), requirePermission("campaigns:view"), requirePlan("useCampaigns"), requireCampaignsEnabled()] as const;
}

/** A campaign as the list and the dialog read it: the record with its list and connection names. */
/**
 * 404 unless the campaign's user, queue, tags and group list are the company's own (issue #24). The
 * connections and the contact list are not checked here yet: the campaign tests still name
 * lists seeded straight into KV and connections their company may not have.
 */
async function requireCampaignRefs(deps: AppDeps, companyId: number, input: CampaignInput): Promise<void> {
  await requireCompanyRefs(deps.system, companyId, { user: input.userId, queue: input.queueId, tag: [input.tagId, input.tagListId] });
  // The group list is one of the company's WhatsApp groups (a group contact).
  if (input.groupListId !== null && !(await getContact(deps.system, companyId, input.groupListId))?.isGroup) {
    throw notFound("ERR_NO_CONTACT_FOUND", `Group ${input.groupListId} does not exist`);
  }
}

async function campaignRow(deps: AppDeps, c: StoredCampaign) {
  const ports = await campaignPorts(deps.system);
  const conns = await whatsapps.in(deps.system, c.companyId).records();
  const first = c.whatsappIds[0];
  return {
    ...campaignView(c),
    whatsappName: first === undefined ? null : conns.get(first)?.name ?? null,
    contactList: c.contactListId === null
      ? null
      : { id: c.contactListId, name: (await ports.contactLists.name(c.companyId, c.contactListId)) ?? null },
    groupList: c.groupListId === null ? null : { id: c.groupListId, name: (await ports.groupLists.name(c.companyId, c.groupListId)) ?? null },
    estimatedEndAt: await estimatedEnd(deps, c),
  };
}

/**
 * When a scheduled or running campaign should end at its settings' average pace (#41), as ISO
 * text; null for the others. It counts the contacts not yet sent to and starts from now, or
 * from the schedule when that is later.
 */
async function estimatedEnd(deps: AppDeps, c: StoredCampaign): Promise<string | null> {
  if (c.status !== "PROGRAMADA" && c.status !== "EM_ANDAMENTO") return null;
  const ports = await campaignPorts(deps.system);
  const listed = c.contactListId === null ? 0 : await ports.contactLists.validCount(c.companyId, c.contactListId);
  const audience = campaignAudience(c, listed);
  const remaining = audience - c.engine.tally.delivered - c.engine.tally.failed;
  const settings = await campaignSettingsOf(deps.system, c.companyId);
  const sent = c.status === "EM_ANDAMENTO" ? c.engine.sent : 0;
  const start = Math.max(Date.now(), c.status === "PROGRAMADA" ? c.scheduledAt ?? 0 : 0);
  return new Date(start + campaignEstimateMs(settings, remaining, sent, ports.timeScale)).toISOString();
}

/** The campaign routes, mounted at `/campaigns`. */
export function campaignRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const gate = gates();
  const idOf = (c: { req: { param(n: string): string } }) => idParam(c as never, "id", () => campaignMissing(c.req.param("id")));

  app.get("/", ...gate, async (c) => {
    const deps = c.get("deps");
    const query = parseQuery(c, SearchPage);
    const all = (await campaignsList(deps.system, c.get("principal").companyId))
      .filter((x) => matchesSearch(query.searchParam, x.name))
      .sort((a, b) => b.id - a.id);
    const page = paginate(all, query.pageNumber);
    return c.json({ records: await Promise.all(page.rows.map((x) => campaignRow(deps, x))), count: page.count, hasMore: page.hasMore });
  });

  app.post("/", ...gate, async (c) => {
    const deps = c.get("deps");
    const input = await parseBody(c, CampaignInput);
    await requireCampaignRefs(deps, c.get("principal").companyId, input);
    const created = await campaignsOf(deps.system, c.get("principal").companyId).ask("create", { input });
    return c.json(await campaignRow(deps, created as StoredCampaign));
  });

  app.get("/:id", ...gate, async (c) => {
    const deps = c.get("deps");
    const found = await getCampaign(deps.system, c.get("principal").companyId, idOf(c));
    if (!found) throw campaignMissing(c.req.param("id"));
    return c.json(await campaignRow(deps, found));
  });

  app.put("/:id", ...gate, async (c) => {
    const deps = c.get("deps");
    const id = idOf(c);
    // Found in the caller's company before the body is judged (another company's id: 404).
    if (!(await getCampaign(deps.system, c.get("principal").companyId, id))) throw campaignMissing(id);
    const input = await parseBody(c, CampaignInput);
    await requireCampaignRefs(deps, c.get("principal").companyId, input);
    const after = await campaignsOf(deps.system, c.get("principal").companyId).ask("update", { id, input });
    return c.json(await campaignRow(deps, after as StoredCampaign));
  });

  app.delete("/:id", ...gate, async (c) => {
    const deps = c.get("deps");
    const removed = await campaignsOf(deps.system, c.get("principal").companyId).ask("remove", { id: idOf(c) });
    if (removed.mediaPath) await deleteMediaFiles(deps, removed.companyId, [removed.mediaPath]);
    await deleteRows(deps.kv, removed.companyId, removed.id);
    return c.json({ message: "Campaign deleted" });
  });

  app.post("/:id/cancel", ...gate, async (c) => {
    const deps = c.get("deps");
    const after = await campaignsOf(deps.system, c.get("principal").companyId).ask("cancel", { id: idOf(c) });
    return c.json(await campaignRow(deps, after as StoredCampaign));
  });

  app.post("/:id/restart", ...gate, async (c) => {
    const deps = c.get("deps");
    const after = await campaignsOf(deps.system, c.get("principal").companyId).ask("restart", { id: idOf(c) });
    return c.json(await campaignRow(deps, after as StoredCampaign));
  });

  app.post("/:id/media-upload", ...gate, async (c) => {
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const id = idOf(c);
    if (!await getCampaign(deps.system, companyId, id)) throw campaignMissing(id);
    const { file } = await readUpload(c);
    if (!file) throw new AppError("ERR_VALIDATION", { status: 400, message: `file: ${MSG.obrigatorio}`, fields: { file: MSG.obrigatorio } });
    const path = await saveMediaFile(deps, companyId, file);
    const { before, campaign } = await campaignsOf(deps.system, companyId).ask("setMedia", { id, mediaPath: path, mediaName: file.name })
      .catch(async (error) => {
        await deleteMediaFiles(deps, companyId, [path]);
        throw error;
      });
    if (before && before !== path) await deleteMediaFiles(deps, companyId, [before]);
    return c.json(await campaignRow(deps, campaign as StoredCampaign));
  });

  app.delete("/:id/media-upload", ...gate, async (c) => {
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const { before, campaign } = await campaignsOf(deps.system, companyId).ask("setMedia", { id: idOf(c), mediaPath: null, mediaName: null });
    if (before) await deleteMediaFiles(deps, companyId, [before]);
    return c.json(await campaignRow(deps, campaign as StoredCampaign));
  });

  /**
   * The report's data (/campaign/{id}/report): the record, the counts, and one page of the
   * shipping rows (searched by number or name, filtered by a card's status;
   * domain/campaign_report.ts) with the total that matched. The counts are kept, not counted
   * (the campaign actor's tally, the contact-lists actor's counts): a read walks no rows but
   * its page's (actors/campaigns/report.ts), since the page re-reads it live while a campaign runs.
   */
  app.get("/:id/report", ...gate, async (c) => {
    const deps = c.get("deps");
    const companyId = c.get("principal").companyId;
    const found = await getCampaign(deps.system, companyId, idOf(c));
    if (!found) throw campaignMissing(c.req.param("id"));
    const query = parseQuery(c, CampaignReportQuery);
    await saveRebuiltTally(deps.system, companyId, found.id);
    const ports = await campaignPorts(deps.system);
    const [page, valid] = await Promise.all([
      shippingPageOf(deps.system, found, query),
      found.contactListId === null ? 0 : ports.contactLists.validCount(companyId, found.contactListId),
    ]);
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return c.json({
      campaign: await campaignRow(deps, found),
      counts: campaignCounts(campaignAudience(found, valid), found.engine.tally),
      total: page.count,
      hasMore: page.hasMore,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      shipping: page.rows.map((r) => ({
        ...r,
        confirmationRequestedAt: iso(r.confirmationRequestedAt),
        confirmedAt: iso(r.confirmedAt),
        deliveredAt: iso(r.deliveredAt),
      })),
    });
  });

  return app;
}

/** The shipping rows of a deleted campaign, in atomics of up to 500 deletes. */
async function deleteRows(kv: Deno.Kv, companyId: number, campaignId: number): Promise<void> {
  let keys: Deno.KvKey[] = [];
  const flush = async () => {
    const op = kv.atomic();
    for (const k of keys) op.delete(k);
    await op.commit();
    keys = [];
  };
  for await (const e of kv.list({ prefix: ["campaign_shipping", companyId, campaignId] })) {
    keys.push(e.key);
    if (keys.length === 500) await flush();
  }
  if (keys.length > 0) await flush();
}

/** The settings routes, mounted at `/campaign-settings`. */
export function campaignSettingsRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const gate = gates();
  app.get("/", ...gate, async (c) => {
    const settings = await campaignSettingsOf(c.get("deps").system, c.get("principal").companyId);
    return c.json(settingsRows(settings));
  });
  app.post("/", ...gate, async (c) => {
    const input = await parseBody(c, CampaignSettingsInput);
    const saved = await campaignsOf(c.get("deps").system, c.get("principal").companyId).ask("saveSettings", input);
    return c.json(settingsRows(saved));
  });
  return app;
}
