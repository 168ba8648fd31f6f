import assert from "node:assert/strict";
import {
  newResetToken,
  normalizeToken,
  RESET_TOKEN_ALPHABET,
  RESET_TOKEN_TTL_MS,
  resetAccepts,
  resetMail,
  ResetPasswordInput,
} from "./password_reset.ts";

Deno.test("newResetToken() draws 8 unambiguous characters from the random bytes", () => {
  const token = newResetToken(new Uint8Array([0, 1, 2, 30, 31, 62, 255, 128, 9]));
  assert.equal(token.length, 8);
  assert.ok([...token].every((ch) => RESET_TOKEN_ALPHABET.includes(ch)));
  assert.doesNotMatch(RESET_TOKEN_ALPHABET, /[01OIL]/);
  assert.throws(() => newResetToken(new Uint8Array(4)));
});

Deno.test("normalizeToken() accepts the mailed form typed loosely", () => {
  assert.equal(normalizeToken(" ab2c-d3ef "), "AB2CD3EF");
});

Deno.test("resetAccepts() wants the same hash before the expiry", () => {
  const reset = { id: 7, tokenHash: "aa11", createdAt: 0, expiresAt: RESET_TOKEN_TTL_MS };
  assert.equal(resetAccepts(reset, "aa11", RESET_TOKEN_TTL_MS - 1), true);
  assert.equal(resetAccepts(reset, "aa11", RESET_TOKEN_TTL_MS), false);
  assert.equal(resetAccepts(reset, "aa12", 0), false);
  assert.equal(resetAccepts(reset, "aa1", 0), false);
  assert.equal(resetAccepts(undefined, "aa11", 0), false);
});

Deno.test("ResetPasswordInput refuses different passwords with the spec's text", () => {
  const result = ResetPasswordInput.safeParse({ email: "a@b.local", token: "x", password: "12345", confirmPassword: "12346" });
  assert.equal(result.success, false);
  assert.deepEqual(result.error!.issues.map((i) => [i.path.join("."), i.message]), [["confirmPassword", "As novas senhas não são iguais"]]);
});

Deno.test("resetMail() shows the code grouped and escapes the user's name in HTML", () => {
  const mail = resetMail("<Ana & Bia>", "ABCD2345");
  assert.match(mail.text, /ABCD-2345/);
  assert.match(mail.html, /&#60;Ana &#38; Bia&#62;/);
  assert.doesNotMatch(mail.html, /<Ana/);
});
