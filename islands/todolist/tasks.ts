/**
 * The to-do list's tasks (spec 002 §2.18, §3 "Local to-do task"): text, createdAt, updatedAt,
 * kept only in this browser's local storage, one list per signed-in user (a shared computer
 * keeps each agent's tasks apart). Blank text is ignored (§5). Pure list operations plus
 * the storage read and write; nothing is sent to the server.
 */
import { readLocal, writeLocal } from "../lib/storage.ts";

/** One task as stored. */
export interface Task {
  text: string;
  /** ISO date-times. */
  createdAt: string;
  updatedAt: string;
}

/** The storage key of `userId`'s tasks. */
export function tasksKey(userId: number): string {
  return `tasks:${userId}`;
}

/** The stored tasks, newest first as saved; anything unreadable is an empty list. */
export function loadTasks(userId: number): Task[] {
  try {
    const raw: unknown = JSON.parse(readLocal(tasksKey(userId), "[]"));
    if (!Array.isArray(raw)) return [];
    return raw.filter((x): x is Task =>
      !!x && typeof x.text === "string" && typeof x.createdAt === "string" && typeof x.updatedAt === "string"
    );
  } catch {
    return [];
  }
}

/** Saves `tasks` for `userId`. */
export function saveTasks(userId: number, tasks: readonly Task[]): void {
  writeLocal(tasksKey(userId), JSON.stringify(tasks));
}

/** `tasks` with a new task first, or unchanged when `text` is blank. */
export function addTask(tasks: readonly Task[], text: string, now: Date): readonly Task[] {
  const clean = text.trim();
  if (!clean) return tasks;
  const at = now.toISOString();
  return [{ text: clean, createdAt: at, updatedAt: at }, ...tasks];
}

/** `tasks` with task `index` given `text` (updatedAt now), or unchanged when blank or the same. */
export function editTask(tasks: readonly Task[], index: number, text: string, now: Date): readonly Task[] {
  const clean = text.trim();
  const old = tasks[index];
  if (!old || !clean || clean === old.text) return tasks;
  return tasks.map((task, i) => (i === index ? { ...task, text: clean, updatedAt: now.toISOString() } : task));
}

/** `tasks` without task `index`. */
export function deleteTask(tasks: readonly Task[], index: number): readonly Task[] {
  return tasks.filter((_, i) => i !== index);
}
