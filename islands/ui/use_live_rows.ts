/**
 * Live rows: a page listens to its company channel `company-{id}-{suffix}` (spec 001 §7:
 * user, contact, queue, quickmessage, tag, whatsapp, whatsappSession…) and patches its list
 * in place. The events share one shape: `{ action: "create" | "update", <record>: {...} }`
 * or `{ action: "delete", <record>Id: n }`. A `resync` (the socket missed events) reloads.
 */
import { useEffect, useRef } from "react";
import { channelName, onChannel, startSocket } from "../lib/socket.ts";
import type { PagedList } from "./use_paged_list.ts";

/** Which channel and which keys of its events carry the record and the deleted id. */
export interface LiveSpec<T> {
  /** Channel suffix: `user` listens to `company-{id}-user`. */
  suffix?: string;
  /** A whole channel name instead, for platform-wide channels (`company-help`). */
  channel?: string;
  /** The event key holding the record (`user`). */
  record: string;
  /** The event key holding a deleted record's id (`userId`). */
  idKey: string;
  /**
   * Turns the event's record into a row, or null to drop it (not for this page). `current` is
   * the row as the list holds it, so fields the event lacks (joined names) can be kept.
   */
  toRow?: (record: Record<string, unknown>, current: T | undefined) => T | null;
}

/** The viewer ids the socket needs. */
export interface LiveViewer {
  id: number;
  companyId: number;
}

/** Subscribes `list` to the live events of `spec` while the page is open. */
export function useLiveRows<T>(viewer: LiveViewer | null, list: PagedList<T>, spec: LiveSpec<T>): void {
  const ref = useRef({ list, spec });
  ref.current = { list, spec };
  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    const channel = spec.channel ?? channelName(viewer.companyId, spec.suffix ?? "");
    const offEvent = onChannel(channel, (data) => {
      const { list, spec } = ref.current;
      const event = data as Record<string, unknown>;
      if (event.action === "delete") {
        const id = event[spec.idKey];
        if (typeof id === "number" || typeof id === "string") list.remove(id);
        return;
      }
      const record = event[spec.record];
      if (!record || typeof record !== "object") return;
      const current = list.rows.find((r) => String(list.rowId(r)) === String(list.rowId(record as T)));
      const row = spec.toRow ? spec.toRow(record as Record<string, unknown>, current) : record as T;
      if (row) list.upsert(row);
    });
    const offResync = onChannel("resync", () => ref.current.list.reload());
    return () => {
      offEvent();
      offResync();
    };
  }, [viewer?.id, viewer?.companyId, spec.suffix, spec.channel]);
}
