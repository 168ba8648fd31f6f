/** One help entry of the Help screen: its video (when the code names one), title and description. */
import { helpEmbedUrl } from "../../domain/help.ts";
import { t } from "../lib/i18n.ts";
import type { HelpRow } from "./use_helps.ts";

/** A help card; the player is the same lazy iframe the announcements embed. */
export function HelpCard({ help }: { help: HelpRow }) {
  const embed = helpEmbedUrl(help.video);
  return (
    <article className="help-card" data-testid="help-card" aria-labelledby={`help-${help.id}`}>
      {embed && (
        <iframe
          className="help-video"
          src={embed}
          title={t("helps.video", { title: help.title })}
          allow="autoplay; encrypted-media; fullscreen; picture-in-picture"
          allowFullScreen
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      )}
      <div className="help-text">
        <h2 id={`help-${help.id}`}>{help.title}</h2>
        {help.description && <p>{help.description}</p>}
      </div>
    </article>
  );
}
