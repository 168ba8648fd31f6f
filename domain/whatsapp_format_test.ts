import assert from "node:assert/strict";
import { firstLink, parseInline, parseWhatsapp, plainText } from "./whatsapp_format.ts";

Deno.test("parseInline() reads bold, italic, strike, mono and code, nested styles and links", () => {
  assert.deepEqual(parseInline("*Alice Atendente:*"), [{ kind: "bold", children: [{ kind: "text", text: "Alice Atendente:" }] }]);
  assert.deepEqual(parseInline("a _b_ ~c~ ```d e``` `f`"), [
    { kind: "text", text: "a " },
    { kind: "italic", children: [{ kind: "text", text: "b" }] },
    { kind: "text", text: " " },
    { kind: "strike", children: [{ kind: "text", text: "c" }] },
    { kind: "text", text: " " },
    { kind: "mono", text: "d e" },
    { kind: "text", text: " " },
    { kind: "mono", text: "f" },
  ]);
  assert.deepEqual(parseInline("*_both_*"), [
    { kind: "bold", children: [{ kind: "italic", children: [{ kind: "text", text: "both" }] }] },
  ]);
  assert.deepEqual(parseInline("veja https://exemplo.com/a?b=1."), [
    { kind: "text", text: "veja " },
    { kind: "link", href: "https://exemplo.com/a?b=1", text: "https://exemplo.com/a?b=1" },
    { kind: "text", text: "." },
  ]);
  assert.deepEqual(parseInline("www.balcao.app"), [{ kind: "link", href: "https://www.balcao.app", text: "www.balcao.app" }]);
});

Deno.test("parseInline() leaves markers plain where the phone does: inside words, around spaces, unclosed", () => {
  for (const text of ["2*3*4", "snake_case_name", "* not bold*", "*not bold *", "*never closed", "a ~ b ~ c", "**"]) {
    assert.deepEqual(parseInline(text), [{ kind: "text", text }], text);
  }
});

Deno.test("parseInline() keeps markup as text: nothing in a message becomes HTML", () => {
  const text = '<img src=x onerror="alert(1)"> *<b>x</b>*';
  const spans = parseInline(text);
  assert.equal(spans[0].kind, "text");
  assert.equal(plainText(text), '<img src=x onerror="alert(1)"> <b>x</b>');
});

Deno.test("parseWhatsapp() groups bullet and numbered lines, quotes and ``` blocks over several lines", () => {
  const blocks = parseWhatsapp("Itens:\n* um\n- dois\n1. primeiro\n2. segundo\n> citado\n```\nlinha 1\nlinha 2\n```");
  assert.deepEqual(blocks.map((b) => b.kind), ["line", "bullets", "numbered", "quote", "code"]);
  assert.equal(blocks[1].kind === "bullets" && blocks[1].items.length, 2);
  assert.equal(blocks[2].kind === "numbered" && blocks[2].start, 1);
  assert.equal(blocks[4].kind === "code" && blocks[4].text, "linha 1\nlinha 2");
});

Deno.test("plainText() drops the markers for previews and keeps the words", () => {
  assert.equal(plainText("*Alice Atendente:*\nOlá, _tudo_ ~bem~?"), "Alice Atendente:\nOlá, tudo bem?");
  assert.equal(plainText("* um\n* dois"), "• um\n• dois");
  assert.equal(plainText("2*3*4"), "2*3*4");
});

Deno.test("firstLink() finds the first link of a text as the bubble links it, or null", () => {
  assert.equal(firstLink("Veja https://loja.example/tenis?cor=azul, e depois www.outra.example"), "https://loja.example/tenis?cor=azul");
  assert.equal(firstLink("site: www.loja.example."), "https://www.loja.example");
  assert.equal(firstLink("sem links aqui"), null);
});
