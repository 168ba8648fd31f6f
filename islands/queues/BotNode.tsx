/**
 * One node of the bot tree: its number, title and type, the buttons (expand/collapse, edit
 * toggle, move up, move down, add a sub-option, delete; each labelled with the option's
 * title for screen readers), a clip when it carries media, the option's form while its edit
 * toggle is on (a save turns it off), and its children when expanded.
 */
import type { ReactNode } from "react";
import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, Paperclip, Pencil, Plus, Trash2 } from "lucide-react";
import { t } from "../lib/i18n.ts";
import type { TreeNode } from "../../domain/bot_tree.ts";
import { BotOptionForm, typeLabel } from "./BotOptionForm.tsx";
import type { OptionRow, QueueRow, UserChoice } from "./types.ts";

/** What a node may do to the tree (BotTree owns the state and the calls). */
export interface BotOps {
  busy: boolean;
  queues: QueueRow[];
  users: UserChoice[];
  isExpanded: (id: number) => boolean;
  isEditing: (id: number) => boolean;
  toggleExpanded: (id: number) => void;
  toggleEditing: (id: number) => void;
  addChild: (id: number) => void;
  move: (id: number, delta: -1 | 1) => void;
  remove: (option: OptionRow) => void;
  saved: (option: OptionRow) => void;
}

/** A small icon button of a node. */
function NodeButton({ label, onClick, disabled, pressed, expanded, danger, children }: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  expanded?: boolean;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={danger ? "icon-btn icon-danger" : "icon-btn"}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      aria-expanded={expanded}
      onClick={onClick}
      disabled={disabled}
    >
      {children}
    </button>
  );
}

/** One option and, when expanded, its sub-options. */
export function BotNode({ node, index, count, ops }: { node: TreeNode<OptionRow>; index: number; count: number; ops: BotOps }) {
  const o = node.item;
  const open = ops.isExpanded(o.id);
  const editing = ops.isEditing(o.id);
  const vars = { title: o.title };
  return (
    <li className="bot-node" data-option-id={o.id}>
      <div className="bot-row">
        <NodeButton
          label={t(open ? "queues.bot.collapse" : "queues.bot.expand", vars)}
          onClick={() => ops.toggleExpanded(o.id)}
          disabled={node.children.length === 0}
          expanded={node.children.length > 0 ? open : undefined}
        >
          {open ? <ChevronDown size={16} aria-hidden="true" /> : <ChevronRight size={16} aria-hidden="true" />}
        </NodeButton>
        <span className="bot-number" data-testid="bot-number">{o.option}</span>
        <span className="bot-title">{o.title}</span>
        {o.mediaName && <Paperclip size={14} className="bot-clip" role="img" aria-label={o.mediaName} />}
        <span className="bot-type">{typeLabel(o.queueType)}</span>
        <span className="bot-actions">
          <NodeButton label={t("queues.bot.editToggle", vars)} onClick={() => ops.toggleEditing(o.id)} pressed={editing}>
            <Pencil size={16} aria-hidden="true" />
          </NodeButton>
          <NodeButton label={t("queues.bot.moveUp", vars)} onClick={() => ops.move(o.id, -1)} disabled={ops.busy || index === 0}>
            <ArrowUp size={16} aria-hidden="true" />
          </NodeButton>
          <NodeButton label={t("queues.bot.moveDown", vars)} onClick={() => ops.move(o.id, 1)} disabled={ops.busy || index === count - 1}>
            <ArrowDown size={16} aria-hidden="true" />
          </NodeButton>
          <NodeButton label={t("queues.bot.addChild", vars)} onClick={() => ops.addChild(o.id)} disabled={ops.busy}>
            <Plus size={16} aria-hidden="true" />
          </NodeButton>
          <NodeButton label={t("queues.bot.delete", vars)} onClick={() => ops.remove(o)} disabled={ops.busy} danger>
            <Trash2 size={16} aria-hidden="true" />
          </NodeButton>
        </span>
      </div>
      {editing && <BotOptionForm option={o} queues={ops.queues} users={ops.users} onSaved={ops.saved} />}
      {open && node.children.length > 0 && (
        <ul className="bot-level">
          {node.children.map((child, i) => <BotNode key={child.item.id} node={child} index={i} count={node.children.length} ops={ops} />)}
        </ul>
      )}
    </li>
  );
}
