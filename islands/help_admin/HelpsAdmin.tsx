/**
 * The help admin of spec 001 §2.9 (super): title, description and video code above a table
 * of every entry, with the plans' create/update/delete pattern (islands/plans/record_admin)
 * and the spec's 'helpo' failure wording. Shown in the Ajuda tab of /settings and, for a
 * super user, above the list on /helps. Changes by another super arrive on `company-help`
 * (domain/help.ts HELP_CHANNEL), the channel the Help screen follows too.
 */
import { useEffect, useMemo, useRef } from "react";
import { HELP_CHANNEL } from "../../domain/help.ts";
import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import type { SessionUser } from "../lib/session.ts";
import { onChannel, startSocket } from "../lib/socket.ts";
import type { ColumnDef } from "../ui/DataTable.tsx";
import { TextField } from "../ui/form.tsx";
import { type PagedList, usePagedList } from "../ui/use_paged_list.ts";
import type { HelpRow } from "../helps/use_helps.ts";
import { RecordAdminFrame, useRecordAdmin } from "../plans/record_admin.tsx";

/** The form's values (HelpInput's fields). */
interface HelpValues extends Record<string, unknown> {
  title: string;
  description: string;
  video: string;
}

const BLANK: HelpValues = { title: "", description: "", video: "" };
const toValues = (h: HelpRow): HelpValues => ({ title: h.title, description: h.description, video: h.video });
const toBody = (v: HelpValues) => ({ title: v.title.trim(), description: v.description.trim(), video: v.video.trim() });

/** Patches `list` from the `company-help` frames (`{ action, record }` / `{ action, id }`); a resync reloads. */
function useHelpEvents(viewer: SessionUser | null, list: PagedList<HelpRow>): void {
  const ref = useRef(list);
  ref.current = list;
  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    const off = onChannel(HELP_CHANNEL, (data) => {
      const event = data as { action?: string; record?: HelpRow; id?: number };
      if (event.action === "delete" && typeof event.id === "number") ref.current.remove(event.id);
      else if (event.record && typeof event.record.id === "number") ref.current.upsert(event.record);
    });
    const offResync = onChannel("resync", () => ref.current.reload());
    return () => {
      off();
      offResync();
    };
  }, [viewer?.id, viewer?.companyId]);
}

/** The help admin; `initial` is GET /helps/list as read on the server, or null. */
export function HelpsAdmin({ initial, viewer }: { initial: HelpRow[] | null; viewer: SessionUser | null }) {
  const list = usePagedList<HelpRow>({
    initial: initial && { rows: initial, hasMore: false },
    fetchPage: async () => ({ rows: await get<HelpRow[]>("/helps/list"), hasMore: false }),
    rowId: (h) => h.id,
  });
  useHelpEvents(viewer, list);
  const admin = useRecordAdmin<HelpRow, HelpValues>({
    schema: "HelpInput",
    path: "/helps",
    list,
    blank: BLANK,
    toValues,
    toBody,
    saveError: t("settingsHelps.saveError"),
  });
  const columns = useMemo<ColumnDef<HelpRow, unknown>[]>(() => [
    { accessorKey: "title", header: t("settingsHelps.titleField") },
    { accessorKey: "description", header: t("settingsHelps.description"), meta: { className: "col-clip" } },
    { accessorKey: "video", header: t("settingsHelps.video") },
  ], []);
  const f = admin.form;

  return (
    <RecordAdminFrame admin={admin} list={list} columns={columns} nameOf={(h) => h.title} label={t("settingsHelps.admin")} emptyText={t("settingsHelps.empty")} testId="help" wideFields>
      <TextField form={f} name="title" label={t("settingsHelps.titleField")} />
      <TextField form={f} name="video" label={t("settingsHelps.video")} hint={t("settingsHelps.videoHint")} />
      <div className="field-wide">
        <TextField form={f} name="description" label={t("settingsHelps.description")} rows={3} />
      </div>
    </RecordAdminFrame>
  );
}
