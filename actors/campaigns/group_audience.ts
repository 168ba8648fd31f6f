/**
 * A campaign's group list (spec 002 §2.3, §3 `groupListId`): the members of one of the
 * company's WhatsApp groups, sent to after the contact list's entries.
 *
 * The members are taken once, when the campaign starts (the host asks a connection:
 * ports.ts GroupListSource), and kept as a snapshot beside the campaign, so a member who
 * joins or leaves while it runs changes nothing, and a stopped campaign resumes over the
 * same people. The snapshot is cut in chunks of MEMBERS_PER_CHUNK (one KV value each, far
 * under 64 KiB; a WhatsApp group holds at most 1,024 people) written in the commit that
 * starts the campaign. Member `i` (0-based) is the audience entry `GROUP_ROW_BASE + i + 1`:
 * above every contact-list entry id, so the engine's one cursor walks the list first, then
 * the group, and a member's shipping row never takes a list entry's id.
 */
import type { ContactListEntry } from "./ports.ts";

/** The first id above the contact-list entries (per-company counters never come near it). */
export const GROUP_ROW_BASE = 1_000_000_000_000;

/** Members per KV value of the snapshot. */
export const MEMBERS_PER_CHUNK = 200;

/** One member as the snapshot keeps it. */
export interface GroupMember {
  number: string;
  name: string;
}

/** The key of chunk `chunk` of campaign `campaignId`'s snapshot. */
export const groupChunkKey = (companyId: number, campaignId: number, chunk: number): Deno.KvKey => [
  "campaign_group_member",
  companyId,
  campaignId,
  chunk,
];

/** The snapshot's chunks in order (what `start` writes). */
export function memberChunks(members: readonly GroupMember[]): GroupMember[][] {
  const chunks: GroupMember[][] = [];
  for (let i = 0; i < members.length; i += MEMBERS_PER_CHUNK) chunks.push(members.slice(i, i + MEMBERS_PER_CHUNK));
  return chunks;
}

/** How many chunks a snapshot of `size` members has. */
export function chunkCount(size: number): number {
  return Math.ceil(size / MEMBERS_PER_CHUNK);
}

/** Whether an audience entry id is a group member's (else a contact-list entry's). */
export function isGroupRow(id: number): boolean {
  return id > GROUP_ROW_BASE;
}

/**
 * Up to `limit` members after entry id `afterId` of a snapshot of `size` members, as audience
 * entries (ascending ids). Reads only the chunks they are in.
 */
export async function groupEntriesAfter(
  kv: Deno.Kv,
  companyId: number,
  campaignId: number,
  size: number,
  afterId: number,
  limit: number,
): Promise<ContactListEntry[]> {
  const from = Math.max(0, afterId - GROUP_ROW_BASE);
  const to = Math.min(size, from + limit);
  const out: ContactListEntry[] = [];
  for (let chunk = Math.floor(from / MEMBERS_PER_CHUNK); chunk * MEMBERS_PER_CHUNK < to; chunk++) {
    const members = (await kv.get<GroupMember[]>(groupChunkKey(companyId, campaignId, chunk))).value ?? [];
    members.forEach((m, j) => {
      const index = chunk * MEMBERS_PER_CHUNK + j;
      if (index >= from && index < to) {
        out.push({ id: GROUP_ROW_BASE + index + 1, name: m.name, number: m.number, email: null, isWhatsappValid: null });
      }
    });
  }
  return out;
}
