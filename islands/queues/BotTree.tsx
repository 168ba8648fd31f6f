/**
 * The 'Fluxo do Bot' editor (spec 001 §2.15, §4): the queue's option tree from
 * GET /queue-options, with add root / add child (the server fills 'Nova opção', 'Nova
 * subopção', 'Mensagem padrão', type text), expand/collapse, an edit toggle per node, move
 * up/down and delete. A move or a delete is one call; the server renumbers the siblings 1..n
 * and the list here is renumbered by the same rule (domain/bot_tree.ts), so what is shown is
 * what is stored without a reload. Changes by others arrive on `company-{id}-queueOption`
 * (each renumbered sibling is its own update event).
 */
import { useEffect, useMemo, useState } from "react";
import { Plus } from "lucide-react";
import { api, get } from "../lib/api.ts";
import { channelName, onChannel, startSocket } from "../lib/socket.ts";
import { t } from "../lib/i18n.ts";
import { showToast, toastError } from "../lib/toast.ts";
import { buildTree, movedPosition, moveTo, removeOption, upsertOption } from "../../domain/bot_tree.ts";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { EmptyState, ErrorState, Skeleton } from "../ui/States.tsx";
import { BotNode, type BotOps } from "./BotNode.tsx";
import type { LiveViewer } from "../ui/use_live_rows.ts";
import type { OptionRow, QueueRow, UserChoice } from "./types.ts";

/** Adds or removes `id` of a set held in state. */
const toggled = (set: Set<number>, id: number, on = !set.has(id)) => {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
};

/**
 * `flat` after a live event of the queueOption channel. An event's record has no signed
 * `mediaUrl`: the known one is kept while the file is the same, else the name shows unlinked.
 */
function applyEvent(flat: OptionRow[], queueId: number, event: Record<string, unknown>): OptionRow[] {
  if (event.action === "delete") {
    const id = Number(event.queueOptionId);
    return flat.some((o) => o.id === id) ? removeOption(flat, id) : flat;
  }
  const record = event.queueOption as Omit<OptionRow, "mediaUrl"> | undefined;
  if (!record || record.queueId !== queueId) return flat;
  const old = flat.find((o) => o.id === record.id);
  return upsertOption(flat, { ...record, mediaUrl: old && old.mediaPath === record.mediaPath ? old.mediaUrl : null });
}

const failed = (error: unknown) => toastError((error as { body?: unknown }).body ?? error);

/** Props of BotTree. */
export interface BotTreeProps {
  queueId: number;
  /** Who is editing (the live channel's company and the socket's user). */
  viewer: LiveViewer | null;
  /** The company's queues (targets of `queue` options). */
  queues: QueueRow[];
}

/** The bot option tree of one queue. */
export function BotTree({ queueId, viewer, queues }: BotTreeProps) {
  const [flat, setFlat] = useState<OptionRow[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [users, setUsers] = useState<UserChoice[]>([]);
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<Set<number>>(new Set());
  const [deleting, setDeleting] = useState<OptionRow | null>(null);
  const [busy, setBusy] = useState(false);

  function load() {
    setLoadFailed(false);
    get<OptionRow[]>(`/queue-options?queueId=${queueId}`).then(setFlat, () => setLoadFailed(true));
  }
  useEffect(load, [queueId]);
  useEffect(() => {
    if (!viewer) return;
    startSocket(viewer.companyId, viewer.id);
    return onChannel(channelName(viewer.companyId, "queueOption"), (data) => {
      setFlat((f) => f && applyEvent(f, queueId, data as Record<string, unknown>));
    });
  }, [queueId, viewer?.companyId, viewer?.id]);
  useEffect(() => {
    get<UserChoice[]>("/users/list").then((list) => setUsers(list.map(({ id, name }) => ({ id, name }))), () => {});
  }, []);

  /** Runs one call at a time (a second click while a move is in flight is ignored). */
  async function run(work: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    try {
      await work();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(false);
    }
  }

  function add(parentId: number | null) {
    return run(async () => {
      const created = await api<OptionRow>("POST", "/queue-options", { queueId, parentId });
      setFlat((f) => upsertOption(f ?? [], created));
      if (parentId !== null) setExpanded((s) => toggled(s, parentId, true));
      setEditing((s) => toggled(s, created.id, true));
    });
  }

  const ops: BotOps = {
    busy,
    queues,
    users,
    isExpanded: (id) => expanded.has(id),
    isEditing: (id) => editing.has(id),
    toggleExpanded: (id) => setExpanded((s) => toggled(s, id)),
    toggleEditing: (id) => setEditing((s) => toggled(s, id)),
    addChild: (id) => add(id),
    move: (id, delta) =>
      run(async () => {
        const at = flat && movedPosition(flat, id, delta);
        if (!at) return;
        await api("PUT", `/queue-options/${id}`, { option: at });
        setFlat((f) => moveTo(f ?? [], id, at));
      }),
    remove: (option) => setDeleting(option),
    saved: (option) => {
      setFlat((f) => upsertOption(f ?? [], option));
      setEditing((s) => toggled(s, option.id, false));
      showToast("success", t("queues.bot.saved"));
    },
  };

  const tree = useMemo(() => buildTree(flat ?? []), [flat]);

  return (
    <div className="bot-tree" data-testid="bot-tree">
      <div className="bot-tree-head">
        <p className="muted">{t("queues.bot.intro")}</p>
        <button type="button" className="btn btn-primary" onClick={() => add(null)} disabled={busy || !flat}>
          <Plus size={16} aria-hidden="true" /> {t("queues.bot.addRoot")}
        </button>
      </div>
      {loadFailed
        ? <ErrorState text={t("queues.bot.loadError")} onRetry={load} />
        : !flat
        ? <Skeleton rows={3} />
        : tree.length === 0
        ? <EmptyState text={t("queues.bot.empty")} />
        : (
          <ul className="bot-level">
            {tree.map((node, i) => <BotNode key={node.item.id} node={node} index={i} count={tree.length} ops={ops} />)}
          </ul>
        )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        onConfirm={() => {
          const target = deleting;
          if (!target) return;
          run(async () => {
            await api("DELETE", `/queue-options/${target.id}`);
            setFlat((f) => removeOption(f ?? [], target.id));
          });
        }}
      />
    </div>
  );
}
