/**
 * The Help screen's list: the entries rendered on the server (no fetch on first paint), kept
 * current by `company-help` events (the platform owner's create, update, delete reach every
 * company) and refetched on a socket `resync` or a retry. Sorted by id, as GET /helps/list.
 */
import { useCallback, useEffect, useState } from "react";
import { type Help, HELP_CHANNEL } from "../../domain/help.ts";
import { get } from "../lib/api.ts";
import { onChannel, startSocket } from "../lib/socket.ts";
import type { SessionUser } from "../lib/session.ts";

/** A help entry as GET /helps/list answers it. */
export type HelpRow = Pick<Help, "id" | "title" | "description" | "video">;

/** Where the list is. */
export type HelpsStatus = "loading" | "ready" | "error";

/** The entries, their status and a reload. */
export interface HelpsList {
  rows: HelpRow[];
  status: HelpsStatus;
  reload: () => Promise<void>;
}

/** The `company-help` frame body. */
interface HelpEvent {
  action?: string;
  record?: HelpRow;
  id?: number;
}

function patch(rows: HelpRow[], event: HelpEvent): HelpRow[] {
  if (event.action === "delete") return rows.filter((h) => h.id !== event.id);
  const record = event.record;
  if (!record || typeof record.id !== "number") return rows;
  return [...rows.filter((h) => h.id !== record.id), record].sort((a, b) => a.id - b.id);
}

/** The hook; see the module doc. */
export function useHelps(initial: HelpRow[] | null, viewer: SessionUser | null): HelpsList {
  const [rows, setRows] = useState<HelpRow[]>(initial ?? []);
  const [status, setStatus] = useState<HelpsStatus>(initial ? "ready" : "loading");

  const reload = useCallback(async () => {
    try {
      setRows(await get<HelpRow[]>("/helps/list"));
      setStatus("ready");
    } catch {
      setStatus((s) => (s === "ready" ? s : "error"));
    }
  }, []);

  useEffect(() => {
    if (!initial) reload();
  }, []);

  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    const offEvent = onChannel(HELP_CHANNEL, (data) => setRows((old) => patch(old, data as HelpEvent)));
    const offResync = onChannel("resync", () => reload());
    return () => {
      offEvent();
      offResync();
    };
  }, [viewer?.id, viewer?.companyId]);

  return { rows, status, reload };
}
