/** Unit tests of the chatbot tree walker (domain/bot_walker.ts). */
import assert from "node:assert/strict";
import { foldReply, menuList, menuText, pickByReply, validPath, walk, type WalkOption } from "./bot_walker.ts";

const opt = (id: number, parentId: number | null, option: number, title: string, queueType: WalkOption["queueType"] = "text"): WalkOption => ({
  id,
  parentId,
  option,
  title,
  message: `msg ${title}`,
  queueType,
  queueOptionsId: queueType === "queue" ? 99 : null,
  queueUsersId: queueType === "attendent" ? 7 : null,
  mediaPath: null,
  mediaName: null,
});

// Roots: 1 Financeiro (children: 1 Boletos, 2 Falar com atendente), 2 Horários (leaf), 3 Vendas (queue).
const tree = [
  opt(10, null, 1, "Financeiro"),
  opt(11, 10, 1, "Boletos"),
  opt(12, 10, 2, "Falar com atendente", "attendent"),
  opt(20, null, 2, "Horários"),
  opt(30, null, 3, "Vendas", "queue"),
];

Deno.test("foldReply() ignores case, accents, asterisks and surrounding punctuation", () => {
  assert.equal(foldReply("  *HORÁRIOS*. "), "horarios");
  assert.equal(foldReply("2)"), "2");
  assert.equal(foldReply("Falar   com\natendente!"), "falar com atendente");
});

Deno.test("pickByReply() picks by number or by the title typed out", () => {
  const level = tree.filter((o) => o.parentId === null);
  assert.equal(pickByReply("2", level, (o) => o.option, (o) => o.title)?.id, 20);
  assert.equal(pickByReply("*3*", level, (o) => o.option, (o) => o.title)?.id, 30);
  assert.equal(pickByReply("horarios", level, (o) => o.option, (o) => o.title)?.id, 20);
  assert.equal(pickByReply("9", level, (o) => o.option, (o) => o.title), null);
  assert.equal(pickByReply("quero falar", level, (o) => o.option, (o) => o.title), null);
});

Deno.test("walk() opens a text option with children, stays on a leaf text option and acts on the others", () => {
  const open = walk(tree, [], "1", false);
  assert.equal(open.type, "open");
  assert.deepEqual(open.path, [10]);
  const leaf = walk(tree, [], "Horários", false);
  assert.equal(leaf.type, "text");
  assert.deepEqual(leaf.path, []);
  const queue = walk(tree, [], "3", false);
  assert.equal(queue.type, "act");
  const attendent = walk(tree, [10], "falar com ATENDENTE", false);
  assert.equal(attendent.type, "act");
  assert.equal(attendent.type === "act" && attendent.option.id, 12);
});

Deno.test("walk() repeats the level on an invalid reply, or restarts at the roots with resetChatbotMsg", () => {
  assert.deepEqual(walk(tree, [10], "7", false), { type: "menu", path: [10], reason: "invalid" });
  assert.deepEqual(walk(tree, [10], "7", true), { type: "menu", path: [], reason: "reset" });
});

Deno.test("walk() goes up one level on 0, voltar or back; at the roots it shows the roots", () => {
  assert.deepEqual(walk(tree, [10], "0", false), { type: "menu", path: [], reason: "back" });
  assert.deepEqual(walk(tree, [10], "Voltar", false), { type: "menu", path: [], reason: "back" });
  assert.deepEqual(walk(tree, [], "back", false), { type: "menu", path: [], reason: "back" });
});

Deno.test("validPath() cuts the path where an option was deleted or moved", () => {
  assert.deepEqual(validPath(tree, [10]), [10]);
  assert.deepEqual(validPath(tree, [10, 11]), [10, 11]);
  assert.deepEqual(validPath(tree, [11]), []);
  assert.deepEqual(validPath(tree, [10, 99]), [10]);
});

Deno.test("menuText() and menuList() render the level; a list has at most 10 rows and 24-character titles", () => {
  const entries = [{ n: 1, title: "Financeiro" }, { n: 0, title: "Voltar" }];
  assert.equal(menuText("Olá!", entries), "Olá!\n\n*1* - Financeiro\n*0* - Voltar");
  const list = menuList("Olá!", [{ n: 1, title: "Uma opção com um título bem comprido" }], "Ver opções", "Escolha");
  assert.equal(list?.sections[0].rows[0].id, "1");
  assert.equal(list?.sections[0].rows[0].title.length, 24);
  assert.equal(menuList("x", Array.from({ length: 11 }, (_, i) => ({ n: i + 1, title: `o${i}` })), "b", "s"), null);
});
