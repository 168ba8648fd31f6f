import assert from "node:assert/strict";
import { markdownToWhatsapp, richTextToPlain, typebotAnswer, TypebotReply, typebotTurn } from "./typebot.ts";

Deno.test("typebotTurn() sends the bubbles in order and lists a choice input's items", () => {
  const reply = TypebotReply.parse({
    sessionId: "s1",
    messages: [
      { id: "a", type: "text", content: { type: "markdown", markdown: "Olá **Ana**!" } },
      { id: "b", type: "image", content: { url: "https://cdn.example/p.png" } },
    ],
    input: { id: "i", type: "choice input", items: [{ id: "1", content: "Vendas" }, { id: "2", content: "Suporte" }] },
  });
  assert.deepEqual(typebotTurn(reply), {
    texts: ["Olá *Ana*!", "https://cdn.example/p.png", "*1* - Vendas\n*2* - Suporte"],
    choices: ["Vendas", "Suporte"],
    ended: false,
  });
});

Deno.test("typebotTurn() ends when the reply waits for no input", () => {
  const turn = typebotTurn(TypebotReply.parse({ messages: [{ type: "text", content: { type: "markdown", markdown: "Tchau" } }] }));
  assert.deepEqual(turn, { texts: ["Tchau"], choices: [], ended: true });
  const waiting = typebotTurn(TypebotReply.parse({ messages: [], input: { type: "text input" } }));
  assert.equal(waiting.ended, false);
});

Deno.test("typebotAnswer() turns a choice's number into its text and keeps anything else", () => {
  assert.equal(typebotAnswer("2", ["Vendas", "Suporte"]), "Suporte");
  assert.equal(typebotAnswer(" *1*. ", ["Vendas", "Suporte"]), "Vendas");
  assert.equal(typebotAnswer("3", ["Vendas", "Suporte"]), "3");
  assert.equal(typebotAnswer("quero comprar", ["Vendas"]), "quero comprar");
  assert.equal(typebotAnswer("42", []), "42");
});

Deno.test("markdownToWhatsapp() and richTextToPlain() keep WhatsApp's formatting", () => {
  assert.equal(markdownToWhatsapp("**a** e __b__, ~~c~~ [site](https://x.example) 1\\. item"), "*a* e *b*, ~c~ site (https://x.example) 1. item");
  assert.equal(
    richTextToPlain([
      { type: "p", children: [{ text: "Olá " }, { text: "Ana", bold: true }] },
      { type: "p", children: [{ type: "a", url: "https://x.example", children: [{ text: "veja" }] }] },
    ]),
    "Olá *Ana*\nveja (https://x.example)",
  );
});
