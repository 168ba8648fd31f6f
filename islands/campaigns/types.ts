/** The shapes of the campaign API (server/api/campaigns.ts) as the campaign screens read them. */
import type { CampaignStatus } from "../../domain/campaign.ts";

/** The five message slots and their confirmation messages (the dialog edits the same fields). */
export interface CampaignMessages {
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
}

/** A campaign as GET /campaigns/ and GET /campaigns/{id} answer (dates as ISO text). */
export interface CampaignRow extends CampaignMessages {
  id: number;
  name: string;
  status: CampaignStatus;
  confirmation: boolean;
  /** Null when the campaign goes to a group list only. */
  contactListId: number | null;
  /** The list's name; absent from live events (the page keeps the name it had). */
  contactList?: { id: number; name: string | null } | null;
  /** The group list's name, as contactList. */
  groupList?: { id: number; name: string | null } | null;
  whatsappId: number | null;
  whatsappIds: number[];
  whatsappName?: string | null;
  tagId: number | null;
  tagListId: number | null;
  queueId: number | null;
  groupListId: number | null;
  openTicket: boolean;
  statusTicket: "pending" | "open" | "closed";
  userId: number | null;
  scheduledAt: string | null;
  completedAt: string | null;
  /** When a scheduled or running campaign should end at its average pace (#41), else null. */
  estimatedEndAt?: string | null;
  mediaPath: string | null;
  mediaName: string | null;
}

/** GET /campaigns/ body. */
export interface CampaignsResponse {
  records: CampaignRow[];
  count: number;
  hasMore: boolean;
}

/** The scheduledAt of a row in milliseconds (the domain's editability rule wants a number). */
export function scheduledMs(row: Pick<CampaignRow, "scheduledAt">): number | null {
  return row.scheduledAt === null ? null : Date.parse(row.scheduledAt);
}
