/**
 * Operations of campaigns and their settings (spec 002 §2.2–2.5, §7, issue #19). Contact
 * lists are their own list (ops_campaigns_lists.ts). Every route needs the plan flag
 * useCampaigns and the admin/supervisor permission `campaigns:view`.
 */
import { z } from "zod";
import { Campaign, CampaignInput, CampaignSettingsInput, CampaignShipping } from "../../domain/campaign.ts";
import { CampaignReportQuery } from "../../domain/campaign_report.ts";
import { SearchPage } from "../../domain/paging.ts";
import { area, type Operation } from "./operation.ts";
import { MessageReply, pageOf } from "./shapes.ts";

const campaigns = area("Campaigns");
const access = "plan flag useCampaigns; campaigns:view (admin, supervisor)";
const iso = z.string().describe("ISO 8601");
/** A campaign as the API answers it (campaignRow in server/api/campaigns.ts): dates as ISO text. */
const CampaignView = Campaign.extend({
  whatsappId: z.number().nullable().describe("The first connection of the rotation (all of them in `whatsappIds`)"),
  scheduledAt: iso.nullable(),
  completedAt: iso.nullable(),
  createdAt: iso,
  updatedAt: iso,
  whatsappName: z.string().nullable(),
  contactList: z.object({ id: z.number(), name: z.string().nullable() }),
});
const CampaignReport = z.object({
  campaign: CampaignView,
  counts: z.object({
    validContacts: z.number().int(),
    confirmationRequested: z.number().int(),
    confirmed: z.number().int(),
    delivered: z.number().int(),
    pending: z.number().int(),
    failed: z.number().int(),
  }),
  total: z.number().int().describe("Shipping rows matching the search and status"),
  hasMore: z.boolean(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  shipping: z.array(CampaignShipping.extend({ confirmationRequestedAt: iso.nullable(), confirmedAt: iso.nullable(), deliveredAt: iso.nullable() }))
    .describe("One page of the rows, ascending by contact-list entry"),
});
const CampaignSettingRows = z.array(z.object({ key: z.string(), value: z.string() }));
const missing = ["ERR_PLAN_FEATURE", "ERR_NOT_FOUND"] as const;
const example = {
  name: "Promoção de maio",
  contactListId: 1,
  whatsappId: "1,2",
  scheduledAt: "2030-05-01T12:00:00.000Z",
  message1: "Olá {{primeiroNome}}, temos novidades!",
};

/** The campaign endpoints. */
export const CAMPAIGN_OPERATIONS: Operation[] = [
  campaigns.get("/campaigns", "Campaigns, newest first, searched by name, 20 a page", { query: { SearchPage }, response: { CampaignPage: pageOf("records", CampaignView) }, access, errors: ["ERR_PLAN_FEATURE"] }),
  campaigns.post("/campaigns", "Create a campaign (PROGRAMADA starts at scheduledAt, INATIVA stays off)", { body: { CampaignInput }, response: { CampaignView }, example, access, errors: ["ERR_PLAN_FEATURE"] }),
  campaigns.get("/campaigns/:id", "One campaign", { response: { CampaignView }, access, errors: [...missing] }),
  campaigns.put("/campaigns/:id", "Save a campaign (only INATIVA, CANCELADA or PROGRAMADA more than 1 h away; else 409)", { body: { CampaignInput }, response: { CampaignView }, example, access, errors: [...missing, "ERR_CONFLICT"] }),
  campaigns.delete("/campaigns/:id", "Delete a campaign that is not running, with its media and shipping rows", { response: { MessageReply }, access, errors: [...missing, "ERR_CONFLICT"] }),
  campaigns.post("/campaigns/:id/cancel", "Stop a running campaign (CANCELADA; 409 when not running)", { response: { CampaignView }, access, errors: [...missing, "ERR_CONFLICT"] }),
  campaigns.post("/campaigns/:id/restart", "Resume a stopped campaign where it stopped (PROGRAMADA now)", { response: { CampaignView }, access, errors: [...missing, "ERR_CONFLICT"] }),
  campaigns.post("/campaigns/:id/media-upload", "Attach the file sent with the campaign message (replaces the previous one)", { bodyKind: "multipart", files: { file: "any file" }, response: { CampaignView }, access, errors: [...missing] }),
  campaigns.delete("/campaigns/:id/media-upload", "Remove the campaign's file", { response: { CampaignView }, access, errors: [...missing] }),
  campaigns.get("/campaigns/:id/report", "The report: the campaign, its counts, and a page of the contacts' shipping rows (search by number or name, status as the cards count)", { query: { CampaignReportQuery }, response: { CampaignReport }, access, errors: [...missing] }),
  campaigns.get("/campaign-settings", "The company's campaign settings as `{ key, value }` rows (§9 defaults when never saved)", { response: { CampaignSettingRows }, access, errors: ["ERR_PLAN_FEATURE"] }),
  campaigns.post("/campaign-settings", "Save the campaign settings (pacing and variables; `{ settings: {...} }` or the fields)", {
    body: { CampaignSettingsInput },
    response: { CampaignSettingRows },
    // The fields form: the document's schema is the settings object (the `{ settings }` wrapper is unwrapped before it).
    example: { messageInterval: 20, longerIntervalAfter: 5, greaterInterval: 100, variables: [{ key: "loja", value: "Centro" }] },
    access,
    errors: ["ERR_PLAN_FEATURE"],
  }),
];
