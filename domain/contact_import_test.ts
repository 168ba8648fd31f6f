/** Unit tests of the phone import's row rules (no server). */
import assert from "node:assert/strict";
import { PhoneImport, phoneRows } from "./contact_import.ts";

Deno.test("phoneRows() names a nameless or one-letter contact by its number and cuts long names to 50", () => {
  const long = "a".repeat(49) + "😀";
  const { valid, errors } = phoneRows([
    { number: "+55 (11) 95555-0001", name: "  Ana  " },
    { number: "5511955550002", name: "" },
    { number: "5511955550003", name: "Z" },
    { number: "5511955550004", name: long },
  ]);
  assert.deepEqual(errors, []);
  assert.deepEqual(valid.map((r) => [r.number, r.name]), [
    ["5511955550001", "Ana"],
    ["5511955550002", "5511955550002"],
    ["5511955550003", "5511955550003"],
    ["5511955550004", "a".repeat(49)],
  ]);
  assert.ok(valid.every((r) => r.email === ""));
});

Deno.test("phoneRows() refuses a short number with its 1-based place in the list", () => {
  const { valid, errors } = phoneRows([{ number: "5511955550001", name: "Ana" }, { number: "123", name: "Curto" }]);
  assert.equal(valid.length, 1);
  assert.deepEqual(errors, [{ line: 2, field: "number", message: "Too Short!" }]);
});

Deno.test("PhoneImport reads whatsappId as an id, and none when absent, empty or 0", () => {
  assert.deepEqual(PhoneImport.parse({}), { whatsappId: null });
  assert.deepEqual(PhoneImport.parse({ whatsappId: "" }), { whatsappId: null });
  assert.deepEqual(PhoneImport.parse({ whatsappId: "7" }), { whatsappId: 7 });
  assert.equal(PhoneImport.safeParse({ whatsappId: -1 }).success, false);
});
