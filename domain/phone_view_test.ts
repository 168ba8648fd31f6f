import assert from "node:assert/strict";
import { locationBody, menuOf, ownTicks } from "./phone_view.ts";
import { menuList, menuText } from "./bot_walker.ts";

Deno.test("menuOf() reads the bot's text menu and a survey's options as buttons, and nothing else", () => {
  const entries = [{ n: 1, title: "Suporte" }, { n: 2, title: "Vendas" }];
  assert.deepEqual(menuOf(menuText("Escolha um setor:", entries)), {
    button: null,
    options: [{ id: "1", title: "Suporte" }, { id: "2", title: "Vendas" }],
  });
  assert.deepEqual(menuOf("Como foi?\n\n*5* - Ótimo\n*1* - Péssimo")?.options.map((o) => o.id), ["5", "1"]);
  assert.equal(menuOf("Um *destaque* só"), null);
  assert.equal(menuOf("*1* - uma linha só"), null, "one numbered line is not a menu");
});

Deno.test("menuOf() takes a list message's rows and button over the text", () => {
  const list = menuList("Escolha:", [{ n: 1, title: "Segunda via do boleto atrasado" }, { n: 2, title: "Vendas" }], "Ver opções", "Setores")!;
  const menu = menuOf("texto qualquer", list)!;
  assert.equal(menu.button, "Ver opções");
  assert.deepEqual(menu.options.map((o) => o.id), ["1", "2"]);
  assert.equal(menu.options[0].description, "Segunda via do boleto atrasado");
});

Deno.test("ownTicks() is blue for what the company read, grey for its unread newest", () => {
  assert.deepEqual([2, 1, 0].map((fromEnd) => ownTicks(fromEnd, 2)), [4, 3, 3]);
  assert.equal(ownTicks(0, 0), 4);
});

Deno.test("locationBody() writes the map link the channels store, with the place name after a bar", () => {
  assert.equal(locationBody(-23.5614, -46.6559), "https://maps.google.com/maps?q=-23.5614%2C-46.6559&z=17&hl=pt-BR");
  assert.match(locationBody(1, 2, " Praça "), /\|Praça$/);
});
