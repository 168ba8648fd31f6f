/**
 * The ticket row's channel icon (spec 000 §2 list item): which kind of connection the
 * conversation runs on, from the connection's provider. WhatsApp Web (Baileys) and the
 * simulator are "WhatsApp"; the official Cloud API and an Evolution API server each have their
 * own icon and name, so an agent knows at a glance, for example, that a Cloud API ticket can
 * only be answered within WhatsApp's 24-hour window.
 */
import { Cloud, MessageCircle, Server } from "lucide-react";
import { t } from "../lib/i18n.ts";

/** The channel kinds the icon tells apart. */
export type ChannelKind = "whatsapp" | "cloudapi" | "evolution";

/** The channel kind of a connection's provider (none or unknown: WhatsApp). */
export function channelKind(provider: string | null | undefined): ChannelKind {
  return provider === "cloudapi" || provider === "evolution" ? provider : "whatsapp";
}

const ICONS = { whatsapp: MessageCircle, cloudapi: Cloud, evolution: Server } as const;

/** The icon of a ticket's connection, labelled with the channel's name. */
export function ChannelIcon({ provider }: { provider: string | null | undefined }) {
  const kind = channelKind(provider);
  const Icon = ICONS[kind];
  const label = t(`inbox.channel.${kind}`);
  return (
    <span className={`channel-icon channel-${kind}`} data-channel={kind} role="img" aria-label={label} title={label}>
      <Icon size={14} aria-hidden="true" />
    </span>
  );
}
