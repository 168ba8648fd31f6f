import assert from "node:assert/strict";
import { formatPhone } from "./phone_mask.ts";

Deno.test("formatPhone() formats 12 digits as +CC (AA) NNNN-NNNN", () => {
  assert.equal(formatPhone("551133334444"), "+55 (11) 3333-4444");
});

Deno.test("formatPhone() formats 13 digits as +CC (AA) NNNNN-NNNN", () => {
  assert.equal(formatPhone("5511990000001"), "+55 (11) 99000-0001");
});

Deno.test("formatPhone() leaves numbers shorter than 12 or longer than 13 digits as stored", () => {
  assert.equal(formatPhone("11999990000"), "11999990000");
  assert.equal(formatPhone("12345"), "12345");
  assert.equal(formatPhone("12025550123456"), "12025550123456");
});

Deno.test("formatPhone() gives an empty text when there is no number", () => {
  assert.equal(formatPhone(""), "");
  assert.equal(formatPhone(null), "");
  assert.equal(formatPhone(undefined), "");
});
