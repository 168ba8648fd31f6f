import assert from "node:assert/strict";
import { callingCode, normalizePhone, phoneProblem, typedPhone } from "./phone_number.ts";

Deno.test("normalizePhone() adds the company's country code to a national number (Brazil by default)", () => {
  assert.equal(normalizePhone("(11) 96666-0001"), "5511966660001");
  assert.equal(normalizePhone("(11) 96666-0001", "BR"), "5511966660001");
  assert.equal(normalizePhone("1133334444"), "551133334444");
  assert.equal(normalizePhone("011 98765-4321"), "5511987654321");
  // Santa Maria's area code is 55 too: a national number is still a national number.
  assert.equal(normalizePhone("(55) 99999-0000"), "5555999990000");
  assert.equal(normalizePhone("912 345 678", "PT"), "351912345678");
  assert.equal(normalizePhone("(212) 555-1234", "US"), "12125551234");
  assert.equal(normalizePhone("912 345 678", "Portugal"), "351912345678");
  assert.equal(callingCode("xx"), "55");
});

Deno.test("normalizePhone() inserts the ninth digit of an eight-digit Brazilian mobile, never of a landline", () => {
  assert.equal(normalizePhone("1187654321"), "5511987654321");
  assert.equal(normalizePhone("+55 31 8765-4321"), "5531987654321");
  assert.equal(normalizePhone("553187654321"), "5531987654321");
  assert.equal(normalizePhone("551133334444"), "551133334444");
});

Deno.test("normalizePhone() keeps a country code written with + or 00, and an international number", () => {
  assert.equal(normalizePhone("+1 555 123 4567"), "15551234567");
  assert.equal(normalizePhone("0044 20 7946 0958"), "442079460958");
  assert.equal(normalizePhone("5511987654321"), "5511987654321");
  assert.equal(normalizePhone("+351 912 345 678", "BR"), "351912345678");
  assert.equal(typedPhone(" +55 (11) 9 "), "+55119");
});

Deno.test("phoneProblem() refuses what no WhatsApp account can be", () => {
  for (const ok of ["5511966660001", "551133334444", "553187654321", "12125551234", "351912345678", "442079460958"]) {
    assert.equal(phoneProblem(ok), null, ok);
  }
  // The stored 11966660001 (read as +1 196…), a zero area, a short and a long one.
  for (const bad of ["11966660001", "550066660001", "5511866660001", "1234567", "1234567890123456"]) {
    assert.ok(phoneProblem(bad), bad);
  }
});
