/**
 * The app shell island: drawer and top bar around every private page. It loads the session
 * (no token → /login), opens the tab's WebSocket, and shows the toasts (the colours come
 * with the page's head: server/pages/document.ts). The drawer is 300 px and collapsible;
 * under 600 px it is temporary (an overlay).
 */
import { useEffect, useState } from "react";
import { t } from "./lib/i18n.ts";
import { useSession } from "./lib/session.ts";
import { sendFrame, startSocket } from "./lib/socket.ts";
import { showToast } from "./lib/toast.ts";
import { writeLocal } from "./lib/storage.ts";
import { routeGate } from "./shell/menu.ts";
import { campaignFlag } from "./lib/campaign_flag.ts";
import { Drawer } from "./shell/Drawer.tsx";
import { restoreTheme } from "./shell/theme.ts";
import { TopBar } from "./shell/TopBar.tsx";
import { ErrorState } from "./ui/States.tsx";
import { Toasts } from "./ui/Toasts.tsx";
import { loadSession, settingEnabled } from "./lib/session.ts";

/** Props of the AppShell island. */
export interface AppShellProps {
  /** The current path, for the menu's current item. */
  path: string;
}

const NARROW = "(max-width: 599px)";

/** Drawer, top bar and toasts. */
export default function AppShell({ path }: AppShellProps) {
  const session = useSession();
  const user = session.status === "ready" ? session.user : null;
  // An expired company's landing (/financeiro with a billing-only token): no user will load.
  const expired = session.status === "expired";
  const [narrow, setNarrow] = useState(false);
  const [open, setOpen] = useState(true);

  useEffect(() => {
    restoreTheme();
    const query = matchMedia(NARROW);
    const update = () => {
      setNarrow(query.matches);
      setOpen(!query.matches && localStorage.getItem("drawerOpen") !== "false");
    };
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);

  useEffect(() => {
    document.documentElement.dataset.drawer = open ? (narrow ? "overlay" : "open") : "closed";
  }, [open, narrow]);

  useEffect(() => {
    if (!user) return;
    startSocket(user.companyId, user.id);
    // Spec 000 §6: viewppw is kept locally, always true for admins.
    writeLocal("viewppw", user.profile === "admin" ? "true" : String(settingEnabled(user, "viewppw")));
    const gate = routeGate(user, path, location.search, { cshow: campaignFlag() });
    if (gate) {
      showToast("error", t(gate.text), "gate");
      setTimeout(() => location.assign(gate.to ?? "/"), gate.delayMs);
    }
    // Spec 000 §9: user status ping every 300000 ms.
    const ping = setInterval(() => sendFrame({ type: "userStatus", status: "online" }), 300_000);
    return () => clearInterval(ping);
  }, [user]);

  function toggle() {
    const next = !open;
    setOpen(next);
    if (!narrow) localStorage.setItem("drawerOpen", String(next));
  }

  return (
    <div className="shell">
      <a className="skip-link" href="#content">{t("common.skipToContent")}</a>
      <Drawer user={user} expired={expired} path={path} open={open} onNavigate={() => narrow && setOpen(false)} />
      {narrow && open && <div className="drawer-backdrop" onClick={() => setOpen(false)} aria-hidden="true" />}
      <TopBar user={user} expired={expired} onMenu={toggle} drawerOpen={open} />
      {/* An expired company's /financeiro shows its own banner above the invoices (FinanceiroPage). */}
      {session.status === "error" && (
        <div className="shell-error"><ErrorState onRetry={() => loadSession(true)} /></div>
      )}
      <Toasts />
    </div>
  );
}
