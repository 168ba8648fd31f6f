import assert from "node:assert/strict";
import { CHECKOUT_MSG, CheckoutAddress, SubscriptionPayload } from "./checkout.ts";

const address = { firstName: "Ana Souza", address2: "Rua A, 1", city: "Recife", state: "PE", zipcode: "50000-000", country: "BR" };
const body = {
  ...address,
  plan: JSON.stringify({ price: 99.9, users: 5, connections: 2 }),
  price: 99.9,
  users: 5,
  connections: 2,
  invoiceId: 7,
};

/** The messages the parse reports, by field. */
function messages(input: unknown): Record<string, string> {
  const r = SubscriptionPayload.safeParse(input);
  assert.equal(r.success, false);
  return Object.fromEntries(r.error!.issues.map((i) => [String(i.path[0]), i.message]));
}

Deno.test("SubscriptionPayload gives the spec's required messages", () => {
  const m = messages({ ...body, firstName: " ", address2: "", city: "", zipcode: "", country: "" });
  assert.equal(m.firstName, CHECKOUT_MSG.firstName);
  assert.equal(m.address2, "O Endereço é obrigatório");
  assert.equal(m.city, "Cidade é obrigatória");
  assert.equal(m.zipcode, "CEP é obrigatório");
  assert.equal(m.country, "País é obrigatório");
  assert.equal(messages({ ...body, invoiceId: undefined }).invoiceId !== undefined, true);
});

Deno.test("zipcode format follows the country: BR 00000-000 or 8 digits, US 5 or 5+4", () => {
  for (const zipcode of ["50000-000", "50000000"]) assert.equal(SubscriptionPayload.safeParse({ ...body, zipcode }).success, true, zipcode);
  for (const zipcode of ["5000-000", "500000000", "50000", "abcde-fgh"]) {
    assert.equal(messages({ ...body, zipcode }).zipcode, "Formato de CEP inválido", zipcode);
  }
  for (const zipcode of ["10001", "10001-1234"]) {
    assert.equal(SubscriptionPayload.safeParse({ ...body, country: "US", zipcode }).success, true, zipcode);
  }
  assert.equal(messages({ ...body, country: "US", zipcode: "50000-000" }).zipcode, "Formato de CEP inválido");
  assert.equal(CheckoutAddress.safeParse({ ...address, zipcode: "123" }).success, false);
  assert.equal(CheckoutAddress.safeParse(address).success, true);
});

Deno.test("card fields are accepted and never kept; plan must be the JSON of price/users/connections", () => {
  const parsed = SubscriptionPayload.parse({ ...body, nameOnCard: "ANA", cardNumber: "4111111111111111", cvv: "123" });
  assert.equal("cardNumber" in parsed, false);
  assert.equal("cvv" in parsed, false);
  assert.equal("nameOnCard" in parsed, false);
  assert.deepEqual(JSON.parse(parsed.plan), { price: 99.9, users: 5, connections: 2 });
  assert.equal(parsed.invoiceId, 7);
  assert.equal(SubscriptionPayload.safeParse({ ...body, plan: "{not json" }).success, false);
  assert.equal(SubscriptionPayload.safeParse({ ...body, plan: JSON.stringify({ price: "x" }) }).success, false);
});
