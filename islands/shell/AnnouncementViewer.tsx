/**
 * The announcement viewer of the top bar's announcements bell (spec 000 §2): title, media
 * (an .mp4 file plays as video, anything else is an image), the text, the video-site links of
 * the text embedded (YouTube, Vimeo), and Previous, Next and 'Mark all as read'. The border
 * colour follows the priority (1 red, 2 orange, 3 grey; 002 §3).
 */
import { isVideoMedia, videoEmbeds } from "../../domain/announcement.ts";
import { t } from "../lib/i18n.ts";
import { Modal } from "../ui/Modal.tsx";

/** An announcement as `GET /announcements/unread/{companyId}` gives it. */
export interface BellAnnouncement {
  id: number;
  title: string;
  text: string;
  priority: number;
  mediaName?: string | null;
  /** Signed URL of the stored media, or null. */
  mediaUrl?: string | null;
}

/** Props of AnnouncementViewer. */
export interface AnnouncementViewerProps {
  items: BellAnnouncement[];
  /** Index of the announcement shown; null when the viewer is closed. */
  index: number | null;
  onIndex: (index: number | null) => void;
  onMarkAllRead: () => void;
}

/** The media of an announcement: a video for .mp4, an image otherwise. */
function Media({ item }: { item: BellAnnouncement }) {
  if (!item.mediaUrl) return null;
  return isVideoMedia(item.mediaName ?? item.mediaUrl)
    ? <video src={item.mediaUrl} controls preload="metadata" data-testid="announcement-video" />
    : <img src={item.mediaUrl} alt={item.mediaName ?? ""} />;
}

/** A dialog showing `items[index]` with Previous, Next and 'Mark all as read'. */
export function AnnouncementViewer({ items, index, onIndex, onMarkAllRead }: AnnouncementViewerProps) {
  const at = index === null ? -1 : Math.min(index, items.length - 1);
  const item = at >= 0 ? items[at] : undefined;
  if (!item) return null;
  const footer = (
    <>
      <span className="muted announcement-count">{t("announcements.position", { index: at + 1, total: items.length })}</span>
      <button type="button" className="btn" disabled={at === 0} onClick={() => onIndex(at - 1)}>
        {t("topbar.previous")}
      </button>
      <button type="button" className="btn" disabled={at >= items.length - 1} onClick={() => onIndex(at + 1)}>
        {t("topbar.next")}
      </button>
      <button type="button" className="btn btn-primary" onClick={onMarkAllRead}>{t("topbar.markAllRead")}</button>
    </>
  );
  return (
    <Modal open onOpenChange={(open) => !open && onIndex(null)} title={item.title} footer={footer} wide>
      <article className={`announcement priority-${item.priority}`} data-testid="announcement-viewer">
        <Media item={item} />
        <p className="announcement-text">{item.text}</p>
        {videoEmbeds(item.text).map((url) => (
          <iframe
            key={url}
            className="announcement-embed"
            src={url}
            title={t("announcements.embeddedVideo")}
            allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
            allowFullScreen
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ))}
      </article>
    </Modal>
  );
}
