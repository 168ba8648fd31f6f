/**
 * How a campaign message goes out (the campaigns actor's port, actors/campaigns/ports.ts):
 * through the connection's shared anti-ban pacer (`Channels.sendPaced`, the limiter agents,
 * the API and number checks use) and with the engine's idempotency key, resolving once the
 * provider accepted it; with `openTicket`, then stored in the contact's ticket (campaign_ticket.ts).
 */
import { groupLists } from "./group_lists.ts";
import type { CampaignPorts } from "../../actors/campaigns/mod.ts";
import { mediaFilePath, mimeOfFile } from "../../actors/messages/media_files.ts";
import { mediaTypeOfMime } from "../../domain/message.ts";
import type { AppDeps } from "../deps.ts";
import { storeCampaignMessage } from "./campaign_ticket.ts";
import { kvContactLists } from "./contact_lists.ts";

export function campaignSender(deps: AppDeps): CampaignPorts {
  return {
    contactLists: kvContactLists(deps.kv, deps.system),
    groupLists: groupLists(deps),
    timeScale: deps.config.campaignTimeScale ?? 1,
    async send(m) {
      const mimetype = m.media ? mimeOfFile(m.media.name) : "";
      if (m.media && !await exists(mediaFilePath(deps.config.dataDir, m.companyId, m.media.path))) {
        return { failed: `Media ${m.media.name} is missing` };
      }
      const sent = await deps.channels.sendPaced(m.companyId, m.whatsappId, {
        to: m.number,
        isGroup: false,
        body: m.body,
        idempotencyKey: m.idempotencyKey,
        ...(m.media
          ? {
            media: {
              path: mediaFilePath(deps.config.dataDir, m.companyId, m.media.path),
              mimetype,
              filename: m.media.name,
              mediaType: mediaTypeOfMime(mimetype),
            },
          }
          : {}),
      });
      await storeCampaignMessage(deps, m, sent.providerId);
      return sent;
    },
  };
}

/** Whether the file is there (a missing campaign file fails its rows instead of retrying forever). */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
