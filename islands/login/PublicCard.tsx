/**
 * The frame of the public pages (login, sign-up, password recovery): the brand, the page's
 * heading, its content and the toasts. One place for the branding these pages share.
 */
import type { ReactNode } from "react";
import { t } from "../lib/i18n.ts";
import { Toasts } from "../ui/Toasts.tsx";

/** Props of PublicCard. */
export interface PublicCardProps {
  title: string;
  children: ReactNode;
  /** A wider card for longer forms (sign-up). */
  wide?: boolean;
  testId?: string;
}

/** Brand, heading and content in a centred card. */
export function PublicCard({ title, children, wide, testId }: PublicCardProps) {
  return (
    <div className={wide ? "card public-card public-card-wide" : "card public-card"} data-testid={testId}>
      <div className="brand" aria-hidden="true">{t("app.name")}</div>
      <h1>{title}</h1>
      {children}
      <Toasts />
    </div>
  );
}
