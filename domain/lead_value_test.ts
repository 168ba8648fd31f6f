import assert from "node:assert/strict";
import { laneLeadValue, leadValueOf, parseLeadValue } from "./lead_value.ts";

Deno.test("parseLeadValue() reads Brazilian and dotted-decimal amounts", async (t) => {
  const cases: Array<[string, number]> = [
    ["R$ 1.234,56", 1234.56],
    ["R$1.234,56", 1234.56],
    ["R$\u00a01.234,56", 1234.56],
    ["1234.56", 1234.56],
    ["1.234", 1234],
    ["1.234.567", 1234567],
    ["1.234.567,89", 1234567.89],
    ["1,234.56", 1234.56],
    ["1234,5", 1234.5],
    ["0,99", 0.99],
    ["12.5", 12.5],
    ["1234", 1234],
    ["  750  ", 750],
    ["-1.000,00", -1000],
    ["1,234,567", 1234567],
  ];
  for (const [text, expected] of cases) {
    await t.step(`'${text}' is ${expected}`, () => assert.equal(parseLeadValue(text), expected));
  }
});

Deno.test("parseLeadValue() refuses what is not an amount", () => {
  for (const text of ["", "R$", "abc", "12a", "1,2,3.4.5", "1.23,4", "1.2.3", "12,", "1..2", "--5", null, undefined]) {
    assert.equal(parseLeadValue(text), null, String(text));
  }
});

Deno.test("leadValueOf() sums only the entries named 'Valor do Lead'", () => {
  assert.equal(leadValueOf([
    { name: "Valor do Lead", value: "R$ 1.000,50" },
    { name: "Empresa", value: "1.000" },
    { name: " valor do lead ", value: "200" },
    { name: "Valor do Lead", value: "a combinar" },
  ]), 1200.5);
  assert.equal(leadValueOf(undefined), 0);
  assert.equal(leadValueOf([]), 0);
});

Deno.test("laneLeadValue() adds the cards' values in whole cents", () => {
  const dime = [{ name: "Valor do Lead", value: "0,10" }];
  assert.equal(laneLeadValue(Array.from({ length: 50 }, () => dime)), 5);
  assert.equal(laneLeadValue([dime, null, undefined, []]), 0.1);
  assert.equal(laneLeadValue([]), 0);
});
