/**
 * Announcements: one platform-wide collection (scope 0 = PLATFORM) published on the
 * `company-announcement` channel to every company, and the users' read marks, one record per
 * user in a per-company collection (scope = the user's company, record id = the user's id).
 */
import { Announcement, AnnouncementReads } from "../../domain/announcement.ts";
import { ANNOUNCEMENT_CHANNEL } from "../../domain/realtime.ts";
import type { BusEvent } from "../../domain/events.ts";
import { defineCollection } from "../collection/mod.ts";

/** The platform's announcements; address with `announcements.in(system, PLATFORM)`. */
export const announcements = defineCollection<Announcement>({
  name: "announcement",
  parse: (raw) => Announcement.parse(raw),
  events: (action, record) => [announcementEvent(action, record)],
});

/** Read marks per user; address with `announcementReads.in(system, companyId)`. */
export const announcementReads = defineCollection<AnnouncementReads>({
  name: "announcement_read",
  parse: (raw) => AnnouncementReads.parse(raw),
});

/**
 * The `company-announcement` event of a change: `{ action, record }`, or `{ action: "delete",
 * id }`. `companyId: null` makes the hub deliver it to every company's sockets, and everyone
 * in a company may see it.
 */
export function announcementEvent(
  action: "create" | "update" | "delete",
  record: Announcement,
): BusEvent {
  return {
    companyId: null,
    channel: ANNOUNCEMENT_CHANNEL,
    data: action === "delete" ? { action, id: record.id } : { action, record },
    scope: { kind: "company" },
  };
}
