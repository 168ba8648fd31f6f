import assert from "node:assert/strict";
import { UserCreate, userEditError } from "./user.ts";

const target = { id: 7, profile: "user" as const, super: false, queueIds: [1, 2], whatsappId: null };

Deno.test("userEditError() lets a plain user edit only its own name, e-mail, password, farewell", () => {
  const self = { id: 7, profile: "user" as const, super: false };
  assert.equal(userEditError(self, target, { name: "Novo", farewellMessage: "tchau" }), null);
  // The modal sends every field: unchanged values are not changes.
  assert.equal(userEditError(self, target, { profile: "user", queueIds: [2, 1], whatsappId: null }), null);
  assert.match(userEditError(self, target, { profile: "admin" }) ?? "", /profile/);
  assert.match(userEditError(self, target, { queueIds: [1] }) ?? "", /queues/);
  assert.match(userEditError(self, target, { whatsappId: 3 }) ?? "", /connection/);
  assert.match(userEditError({ ...self, id: 8 }, target, { name: "X" }) ?? "", /admin/);
  assert.match(userEditError({ ...self, profile: "supervisor" }, { ...target, id: 9 }, {}) ?? "", /admin/);
});

Deno.test("userEditError() keeps the super flag and super users to super users", () => {
  const admin = { id: 1, profile: "admin" as const, super: false };
  assert.equal(userEditError(admin, target, { profile: "admin", queueIds: [] }), null);
  assert.match(userEditError(admin, target, { super: true }) ?? "", /super/);
  assert.match(userEditError(admin, { ...target, super: true }, { name: "X" }) ?? "", /super/);
  assert.equal(userEditError({ ...admin, super: true }, target, { super: true }), null);
});

Deno.test("UserCreate validates with the spec's texts", () => {
  const r = UserCreate.safeParse({ name: "A", email: "x", password: "123" });
  assert.equal(r.success, false);
  const messages = Object.fromEntries(r.error!.issues.map((i) => [i.path.join("."), i.message]));
  assert.deepEqual(messages, { name: "Too Short!", email: "Invalid email", password: "Too Short!" });
});
