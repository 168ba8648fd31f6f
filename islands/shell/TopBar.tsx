/**
 * The top bar (spec 000 §2): menu button, greeting (renewal date for admins), due-date
 * warning, theme toggle, volume, refresh, bells and the profile menu (profile, language,
 * logout).
 */
import { useState } from "react";
import { useSetAtom } from "jotai";
import { DropdownMenu, Popover } from "radix-ui";
import { Check, Languages, LogOut, Menu, Moon, RefreshCw, Sun, UserRound, Volume2, VolumeX } from "lucide-react";
import { daysUntilDue, graceWorkingDaysLeft } from "../../domain/subscription.ts";
import { api, storeToken } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { currentLang, LANGS, switchLang, t } from "../lib/i18n.ts";
import { allowed, type SessionUser } from "../lib/session.ts";
import { settingEnabled } from "../lib/session.ts";
import { AnnouncementsBell, NotificationsBell } from "./Bells.tsx";
import { ConnectionAlertsBell } from "./ConnectionAlertsBell.tsx";
import { useHydratedAtomValue } from "../lib/page_store.ts";
import { volumeAtom } from "./sound.ts";
import { themeAtom } from "./theme.ts";
import { UserModal } from "./UserModal.tsx";

/** The subscription warning text, or null when more than 5 days remain (spec 000 §2, §9). */
export function dueWarning(dueDate: string | null | undefined, now = Date.now()): string | null {
  if (!dueDate) return null;
  const due = new Date(dueDate).getTime();
  const days = daysUntilDue(due, now);
  if (days >= 5) return null;
  if (days > 0) return t("topbar.dueSoon", { days });
  if (days === 0) return t("topbar.dueToday");
  return t("topbar.revoked", { days: graceWorkingDaysLeft(due, now) });
}

/** Props of TopBar. */
export interface TopBarProps {
  user: SessionUser | null;
  /** An expired company's landing: the greeting says so instead of waiting for a user. */
  expired?: boolean;
  onMenu: () => void;
  drawerOpen: boolean;
}

/** The app's top bar. */
export function TopBar({ user, expired, onMenu, drawerOpen }: TopBarProps) {
  const theme = useHydratedAtomValue(themeAtom, "light");
  const setTheme = useSetAtom(themeAtom);
  const volume = useHydratedAtomValue(volumeAtom, 1);
  const changeVolume = useSetAtom(volumeAtom);
  const [profileOpen, setProfileOpen] = useState(false);

  function toggleTheme() {
    setTheme(theme === "dark" ? "light" : "dark");
  }

  async function logout() {
    await api("DELETE", "/auth/logout").catch(() => {});
    storeToken(null);
    location.assign("/login");
  }

  const manager = user ? allowed(user, "drawer-service-items:view") : false;
  const showBell = user && (manager || settingEnabled(user, "viewnoti"));
  const warning = user && !user.super ? dueWarning(user.company?.dueDate) : null;

  return (
    <header className="topbar">
      <button type="button" className="icon-btn topbar-btn" aria-label={t(drawerOpen ? "menu.collapse" : "menu.open")} aria-expanded={drawerOpen} aria-controls="app-drawer" onClick={onMenu}>
        <Menu size={22} />
      </button>
      <div className="greeting">
        {user
          ? (
            <>
              <span className="greeting-text">{t("topbar.greeting", { name: user.name, company: user.company?.name ?? "" })}</span>
              {allowed(user, "greeting:renewalDate") && user.company?.dueDate && (
                <span className="greeting-renewal">{t("topbar.renewal", { date: formatDate(user.company.dueDate) })}</span>
              )}
              {warning && <span className="due-warning" role="alert" title={warning}>{warning}</span>}
            </>
          )
          : expired
          ? <span className="greeting-text">{t("topbar.expired")}</span>
          : <span className="skeleton skeleton-line" />}
      </div>
      <div className="topbar-actions">
        <button type="button" className="icon-btn topbar-btn" aria-label={t(theme === "dark" ? "topbar.themeLight" : "topbar.themeDark")} onClick={toggleTheme} data-testid="theme-toggle">
          {theme === "dark" ? <Sun size={20} /> : <Moon size={20} />}
        </button>
        <Popover.Root>
          <Popover.Trigger className="icon-btn topbar-btn" aria-label={t("topbar.volume")}>
            {volume === 0 ? <VolumeX size={20} /> : <Volume2 size={20} />}
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content className="popover" align="end" sideOffset={6}>
              <label className="field">
                <span>{t("topbar.volume")}</span>
                <input type="range" min={0} max={1} step={0.1} value={volume} onChange={(e) => changeVolume(Number(e.target.value))} />
              </label>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
        <button type="button" className="icon-btn topbar-btn" aria-label={t("topbar.refresh")} onClick={() => location.reload()}>
          <RefreshCw size={20} />
        </button>
        {user && allowed(user, "connections-page:actionButtons") && <ConnectionAlertsBell user={user} />}
        {showBell && <NotificationsBell user={user} />}
        {user && <AnnouncementsBell user={user} />}
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="icon-btn topbar-btn" aria-label={t("topbar.profileMenu")} data-testid="profile-menu">
            <UserRound size={22} />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="menu-popup" align="end" sideOffset={6}>
              <DropdownMenu.Item className="menu-popup-item" disabled={!user} onSelect={() => setProfileOpen(true)}>
                <UserRound size={16} aria-hidden="true" /> {t("topbar.profile")}
              </DropdownMenu.Item>
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Label className="menu-popup-label"><Languages size={14} aria-hidden="true" /> {t("topbar.language")}</DropdownMenu.Label>
              {LANGS.map((lang) => (
                <DropdownMenu.Item key={lang} className="menu-popup-item" onSelect={() => switchLang(lang)} data-lang={lang}>
                  <span className="menu-check">{currentLang() === lang && <Check size={14} aria-hidden="true" />}</span>
                  {t(`lang.${lang}`)}
                </DropdownMenu.Item>
              ))}
              <DropdownMenu.Separator className="menu-separator" />
              <DropdownMenu.Item className="menu-popup-item" onSelect={logout}>
                <LogOut size={16} aria-hidden="true" /> {t("topbar.logout")}
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
      {user && profileOpen && <UserModal user={user} open={profileOpen} onOpenChange={setProfileOpen} />}
    </header>
  );
}
