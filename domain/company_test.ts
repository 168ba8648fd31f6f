import assert from "node:assert/strict";
import { CompanyInput, SignupInput } from "./company.ts";
import { COUNTRY_CODES, DEFAULT_COUNTRY } from "./countries.ts";

/** Field → its first message (as the API and the form kit report them). */
function fieldsOf(r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const fields: Record<string, string> = {};
  for (const i of r.error?.issues ?? []) fields[i.path.join(".")] ??= i.message;
  return fields;
}

Deno.test("SignupInput: the spec's rules and texts (001 §5), plan required", () => {
  assert.deepEqual(fieldsOf(SignupInput.safeParse({})), {
    namecomplete: "Required",
    name: "Required",
    email: "Required",
    password: "Required",
    phone: "Required",
    planId: "Required",
  });
  const short = SignupInput.safeParse({ namecomplete: "A", name: "B", email: "x", password: "123", phone: "1234567", pais: "B", planId: null });
  assert.deepEqual(fieldsOf(short), {
    namecomplete: "Too Short!",
    name: "Too Short!",
    email: "Invalid email",
    password: "Too Short!",
    phone: "Too Short!",
    pais: "Too Short!",
    planId: "Required",
  });
  const long = "x".repeat(51);
  assert.deepEqual(
    Object.values(fieldsOf(SignupInput.safeParse({ namecomplete: long, name: long, email: "a@b.co", password: long, phone: long, pais: long, planId: 1 }))),
    ["Too Long!", "Too Long!", "Too Long!", "Too Long!", "Too Long!"],
  );
  const ok = SignupInput.parse({ namecomplete: "Ana", name: "Loja", email: "A@B.co", password: "12345", phone: "5511999990000", planId: "2" });
  assert.equal(ok.pais, DEFAULT_COUNTRY);
  assert.equal(ok.planId, 2);
  assert.equal(ok.email, "a@b.co");
  assert.equal(fieldsOf(SignupInput.safeParse({ password: "" })).password, "Required");
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
