import assert from "node:assert/strict";
import { addTask, deleteTask, editTask, type Task } from "./tasks.ts";

const t0 = new Date("2025-01-02T10:00:00Z");
const t1 = new Date("2025-01-02T11:00:00Z");

Deno.test("addTask() puts a trimmed task first and ignores blank text", () => {
  const one = addTask([], "  Ligar para o cliente ", t0);
  assert.deepEqual(one, [{ text: "Ligar para o cliente", createdAt: t0.toISOString(), updatedAt: t0.toISOString() }]);
  assert.equal(addTask(one, "   ", t1), one);
  assert.equal(addTask(one, "Segunda", t1)[0].text, "Segunda");
});

Deno.test("editTask() changes the text and updatedAt only; blank or same text changes nothing", () => {
  const list: readonly Task[] = addTask([], "Antes", t0);
  const edited = editTask(list, 0, "Depois", t1);
  assert.deepEqual(edited[0], { text: "Depois", createdAt: t0.toISOString(), updatedAt: t1.toISOString() });
  assert.equal(editTask(list, 0, " ", t1), list);
  assert.equal(editTask(list, 0, "Antes", t1), list);
  assert.equal(editTask(list, 3, "x", t1), list);
});

Deno.test("deleteTask() removes one task by position", () => {
  const list = addTask(addTask([], "A", t0), "B", t1);
  assert.deepEqual(deleteTask(list, 0).map((x) => x.text), ["A"]);
});
