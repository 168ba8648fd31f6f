/**
 * The to-do list (spec 002 §2.18): tasks kept only in this browser (./todolist/tasks.ts):
 * add, edit in place, delete; each shows when it was created and last changed. Blank text is
 * ignored. Nothing is sent to the server. The tasks are read in an effect (local storage
 * exists only in the browser), so the server's HTML holds the empty frame.
 */
import { type FormEvent, useEffect, useState } from "react";
import { Check, Pencil, Plus, Trash2, X } from "lucide-react";
import { formatDate, formatTime } from "./lib/format.ts";
import { t } from "./lib/i18n.ts";
import type { SessionUser } from "./lib/session.ts";
import { AdminPage, IconButton, useViewer } from "./ui/AdminPage.tsx";
import { EmptyState } from "./ui/States.tsx";
import { addTask, deleteTask, editTask, loadTasks, saveTasks, type Task } from "./todolist/tasks.ts";

/** Props of the TodoListPage island. */
export interface TodoListPageProps {
  viewer: SessionUser | null;
}

const when = (iso: string) => `${formatDate(iso)} ${formatTime(iso)}`;

/** The to-do page. */
export default function TodoListPage({ viewer: serverViewer }: TodoListPageProps) {
  const viewer = useViewer(serverViewer);
  const [tasks, setTasks] = useState<readonly Task[] | null>(null);
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<{ index: number; text: string } | null>(null);

  useEffect(() => {
    if (viewer) setTasks(loadTasks(viewer.id));
  }, [viewer?.id]);

  function change(next: readonly Task[]) {
    setTasks(next);
    if (viewer) saveTasks(viewer.id, next);
  }

  function add(event: FormEvent) {
    event.preventDefault();
    change(addTask(tasks ?? [], text, new Date()));
    setText("");
  }

  function saveEdit(event: FormEvent) {
    event.preventDefault();
    if (!editing) return;
    change(editTask(tasks ?? [], editing.index, editing.text, new Date()));
    setEditing(null);
  }

  return (
    <AdminPage title={t("todo.title")} testId="todo-page">
      <div className="todo">
        <form className="todo-form" onSubmit={add}>
          <input
            className="input"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t("todo.new")}
            aria-label={t("todo.new")}
            maxLength={1000}
            data-testid="todo-input"
          />
          <button type="submit" className="btn btn-primary" data-testid="todo-add">
            <Plus size={16} aria-hidden="true" /> {t("todo.add")}
          </button>
        </form>
        <p className="todo-note">{t("todo.local")}</p>
        {tasks !== null && tasks.length === 0 && <EmptyState text={t("todo.empty")} />}
        <ul className="todo-list" data-testid="todo-list">
          {(tasks ?? []).map((task, i) => (
            <li key={`${task.createdAt}-${i}`} className="todo-item card" data-testid="todo-item">
              {editing?.index === i
                ? (
                  <form className="todo-form todo-text" onSubmit={saveEdit}>
                    <input
                      className="input"
                      value={editing.text}
                      autoFocus
                      aria-label={t("todo.edit")}
                      maxLength={1000}
                      onChange={(e) => setEditing({ index: i, text: e.target.value })}
                      onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
                      data-testid="todo-edit-input"
                    />
                    <button type="submit" className="icon-btn" aria-label={t("todo.save")} title={t("todo.save")} data-testid="todo-save">
                      <Check size={16} />
                    </button>
                    <IconButton label={t("todo.cancelEdit")} onClick={() => setEditing(null)}><X size={16} /></IconButton>
                  </form>
                )
                : (
                  <>
                    <span className="todo-text">
                      <span data-testid="todo-text">{task.text}</span>
                      <span className="todo-meta">
                        {t("todo.created", { date: when(task.createdAt) })}
                        {task.updatedAt !== task.createdAt && <> · {t("todo.updated", { date: when(task.updatedAt) })}</>}
                      </span>
                    </span>
                    <IconButton label={t("todo.edit")} onClick={() => setEditing({ index: i, text: task.text })}><Pencil size={16} /></IconButton>
                    <IconButton label={t("todo.delete")} onClick={() => change(deleteTask(tasks ?? [], i))} danger><Trash2 size={16} /></IconButton>
                  </>
                )}
            </li>
          ))}
        </ul>
      </div>
    </AdminPage>
  );
}
