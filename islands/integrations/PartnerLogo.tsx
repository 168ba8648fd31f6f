/**
 * The partners' marks on /integrations (spec 002 §2.12: "a grid of six partner logos"). Each
 * is a small inline SVG drawn here, in the spirit of the partner's own colours, not a copy
 * of its trademark artwork: nothing is downloaded, the page stays one request, and the marks
 * follow the theme. Colours come from tokens (static/pages/engage.css `--logo-*`), set on
 * the shapes by class, so a component never hard-codes one and the dark theme can lift them.
 */
import type { ReactElement } from "react";

/** The partners that have a mark. */
export type Partner = "typebot" | "n8n" | "cloudapi" | "evolution" | "webhooks" | "api";

/** Props of PartnerLogo. */
export interface PartnerLogoProps {
  partner: Partner;
  /** Side of the square mark in CSS pixels. */
  size?: number;
}

/** The rounded square most marks sit on. */
const Tile = () => <rect className="logo-base" x="1" y="1" width="30" height="30" rx="8" />;

/** The shapes of each mark on a 32×32 grid. */
const MARKS: Record<Partner, () => ReactElement> = {
  // A chat bubble with three dots: a bot that talks in bubbles.
  typebot: () => (
    <>
      <Tile />
      <path className="logo-ink" d="M8 9h16a3 3 0 0 1 3 3v7a3 3 0 0 1-3 3h-9l-5 4v-4H8a3 3 0 0 1-3-3v-7a3 3 0 0 1 3-3z" />
      <circle className="logo-accent" cx="11" cy="15.5" r="1.8" />
      <circle className="logo-accent" cx="16" cy="15.5" r="1.8" />
      <circle className="logo-accent" cx="21" cy="15.5" r="1.8" />
    </>
  ),
  // Three nodes wired left to right: a workflow.
  n8n: () => (
    <>
      <Tile />
      <path className="logo-line" d="M9 16h5M18 16c3 0 3-6 6-6M18 16c3 0 3 6 6 6" />
      <circle className="logo-ink" cx="7" cy="16" r="3" />
      <circle className="logo-ink" cx="16" cy="16" r="3" />
      <circle className="logo-ink" cx="25" cy="10" r="3" />
      <circle className="logo-ink" cx="25" cy="22" r="3" />
    </>
  ),
  // A round chat mark holding a cloud: WhatsApp served from the cloud.
  cloudapi: () => (
    <>
      <path className="logo-base" d="M16 2a14 14 0 1 1-7.2 26L3 30l1.9-5.5A14 14 0 0 1 16 2z" />
      <path className="logo-ink" d="M11 21a4 4 0 0 1-.4-8 5.5 5.5 0 0 1 10.6-1 3.5 3.5 0 0 1 .8 6.9V21z" />
    </>
  ),
  // A hexagon with a rising arrow: an engine that evolves the connection.
  evolution: () => (
    <>
      <path className="logo-base" d="M16 1.5 29 9v14l-13 7.5L3 23V9z" />
      <path className="logo-line" d="M10 21l5-5 3 3 5-6" />
      <path className="logo-ink" d="M19 11h5v5z" />
    </>
  ),
  // Three linked rings: an event hooked to another system.
  webhooks: () => (
    <>
      <Tile />
      <path className="logo-line" d="M16 10l-5 9M16 10l5 9M11 21h10" />
      <circle className="logo-ink" cx="16" cy="9" r="3.5" />
      <circle className="logo-ink" cx="9.5" cy="21.5" r="3.5" />
      <circle className="logo-accent" cx="22.5" cy="21.5" r="3.5" />
    </>
  ),
  // Braces: a programming interface.
  api: () => (
    <>
      <Tile />
      <path className="logo-line" d="M12 8c-3 0-3 2-3 4s0 3-2.5 4c2.5 1 2.5 2 2.5 4s0 4 3 4M20 8c3 0 3 2 3 4s0 3 2.5 4c-2.5 1-2.5 2-2.5 4s0 4-3 4" />
      <circle className="logo-accent" cx="16" cy="16" r="2" />
    </>
  ),
};

/** One partner's mark; decorative (the card's heading names the partner). */
export function PartnerLogo({ partner, size = 40 }: PartnerLogoProps) {
  const Mark = MARKS[partner];
  return (
    <svg
      className={`partner-logo logo-${partner}`}
      viewBox="0 0 32 32"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      data-testid={`logo-${partner}`}
    >
      <Mark />
    </svg>
  );
}
