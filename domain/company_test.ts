import assert from "node:assert/strict";
import { CompanyInput, SignupInput } from "./company.ts";
import { COUNTRY_CODES, DEFAULT_COUNTRY } from "./countries.ts";

/** Field → its first message (as the API and the form kit report them). */
function fieldsOf(r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const fields: Record<string, string> = {};
  for (const i of r.error?.issues ?? []) fields[i.path.join(".")] ??= i.message;
  return fields;
}

// The texts of a missing field and of each limit through the API: tests/companies_test.ts.
Deno.test("SignupInput: an empty password and a null plan say 'Required'; pais defaults to BR", () => {
  const empty = fieldsOf(SignupInput.safeParse({ password: "", planId: null }));
  assert.deepEqual([empty.password, empty.planId], ["Required", "Required"]);
  const ok = SignupInput.parse({ namecomplete: "Ana", name: "Loja", email: "A@B.co", password: "12345", phone: "5511999990000", planId: "2" });
  assert.equal(ok.pais, DEFAULT_COUNTRY);
  assert.equal(ok.planId, 2);
  assert.equal(ok.email, "a@b.co");
});

Deno.test("CompanyInput: e-mail required, empty or invalid due date is null, billing fields kept", () => {
  assert.equal(fieldsOf(CompanyInput.safeParse({ name: "Loja" })).email, "Required");
  const parsed = CompanyInput.parse({ name: "Loja", email: "a@b.co", dueDate: "", billingName: " Loja Ltda ", status: false });
  assert.equal(parsed.dueDate, null);
  assert.equal(parsed.billingName, "Loja Ltda");
  assert.equal(parsed.status, false);
  assert.equal(CompanyInput.parse({ name: "Loja", email: "a@b.co", dueDate: "não é data" }).dueDate, null);
  assert.equal(CompanyInput.parse({ name: "Loja", email: "a@b.co", dueDate: "2027-01-31" }).dueDate, Date.UTC(2027, 0, 31));
  assert.equal(fieldsOf(CompanyInput.safeParse({ name: "Loja", email: "a@b.co", recurrence: "ANUAL" })).recurrence !== undefined, true);
});

Deno.test("COUNTRY_CODES: two-letter codes, the default first, no repeats", () => {
  assert.equal(COUNTRY_CODES[0], DEFAULT_COUNTRY);
  assert.ok(COUNTRY_CODES.every((c) => /^[A-Z]{2}$/.test(c)));
  assert.equal(new Set(COUNTRY_CODES).size, COUNTRY_CODES.length);
});
