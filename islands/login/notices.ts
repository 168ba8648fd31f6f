/**
 * Toasts a public flow leaves for the login page: the flow ends with a navigation to
 * `/login?notice=<name>`, and the login page shows the text once and drops the parameter.
 */
import type { LocaleKey } from "../lib/i18n.ts";

/** Notices by name. */
export const LOGIN_NOTICES = {
  signedUp: "publicFlows.signedUp",
  passwordReset: "publicFlows.passwordReset",
  /** The same user logged in elsewhere (spec 000 §4's second-login rule; islands/lib/socket.ts). */
  elsewhere: "auth.sessionElsewhere",
} as const satisfies Record<string, LocaleKey>;

/** A notice's name. */
export type LoginNotice = keyof typeof LOGIN_NOTICES;

/** The login URL that shows `notice` on arrival. */
export function loginWithNotice(notice: LoginNotice): string {
  return `/login?notice=${notice}`;
}

/** The notice's text key named in `search` (a location.search), or null. */
export function noticeIn(search: string): LocaleKey | null {
  const name = new URLSearchParams(search).get("notice");
  return name && Object.hasOwn(LOGIN_NOTICES, name) ? LOGIN_NOTICES[name as LoginNotice] : null;
}
