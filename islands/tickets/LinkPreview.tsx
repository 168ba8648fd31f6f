/**
 * The link preview card under a message with a link (spec 000 §3 "Link preview": image,
 * title, description, url; §7 GET /messages/metadados?url). Each link is asked for once per
 * page (kept in `previews`, shared by every bubble and every conversation opened; the server
 * lets the browser keep the answer for a day too), and a page that gives neither a title nor an
 * image shows no card. The card is a link to the page, opened in a new tab.
 */
import { memo, useEffect, useState } from "react";
import type { LinkPreview as Preview } from "../../domain/message.ts";
import { get, query } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";

/** Previews of this page by URL (null: the link has none). Bounded: the oldest go first. */
const previews = new Map<string, Promise<Preview | null>>();
const MAX_KEPT = 500;

/** The preview of `url`, fetched at most once per page. */
export function previewOf(url: string): Promise<Preview | null> {
  let found = previews.get(url);
  if (!found) {
    found = get<Preview>("/messages/metadados" + query({ url })).catch(() => null);
    previews.set(url, found);
    if (previews.size > MAX_KEPT) previews.delete(previews.keys().next().value!);
  }
  return found;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function LinkPreviewImpl({ url }: { url: string }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  useEffect(() => {
    let live = true;
    setPreview(null);
    previewOf(url).then((p) => live && setPreview(p));
    return () => {
      live = false;
    };
  }, [url]);
  if (!preview || (!preview.title && !preview.image)) return null;
  const site = hostOf(preview.url || url);
  return (
    <a className="link-preview" href={url} target="_blank" rel="noopener noreferrer" aria-label={t("inbox.linkPreview", { site })} data-testid="link-preview">
      {preview.image && <img className="link-preview-image" src={preview.image} alt="" loading="lazy" />}
      <span className="link-preview-text">
        {preview.title && <strong className="link-preview-title">{preview.title}</strong>}
        {preview.description && <span className="link-preview-description">{preview.description}</span>}
        <small className="muted">{site}</small>
      </span>
    </a>
  );
}

/** A link's preview card; memoised since bubbles re-render often and a link does not change. */
export const LinkPreview = memo(LinkPreviewImpl);
