import assert from "node:assert/strict";
import { menuChoice, queueMenu } from "./chatbot.ts";

const queues = [{ id: 7, name: "Suporte" }, { id: 9, name: "Vendas" }];

Deno.test("queueMenu() lists the queues numbered after the greeting", () => {
  assert.equal(queueMenu("Olá!", queues), "Olá!\n\n*1* - Suporte\n*2* - Vendas");
});

Deno.test("menuChoice() maps a numeric reply to its queue and rejects anything else", () => {
  assert.equal(menuChoice("2", queues)?.id, 9);
  assert.equal(menuChoice(" *1* ", queues)?.id, 7);
  assert.equal(menuChoice("1.", queues)?.id, 7);
  assert.equal(menuChoice("3", queues), null);
  assert.equal(menuChoice("0", queues), null);
  assert.equal(menuChoice("quero suporte", queues), null);
});
