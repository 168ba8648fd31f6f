import assert from "node:assert/strict";
import {
  ExternalMediaInput,
  ExternalSendForm,
  ExternalSendInput,
  IdempotencyKey,
  normalizeApiNumber,
  requestFingerprint,
  takeToken,
} from "./external_message.ts";

Deno.test("normalizeApiNumber() adds country code 55 to a bare Brazilian number", () => {
  assert.equal(normalizeApiNumber("(11) 98765-4321"), "5511987654321");
  assert.equal(normalizeApiNumber("1133334444"), "551133334444");
  assert.equal(normalizeApiNumber("011 98765-4321"), "5511987654321");
});

Deno.test("normalizeApiNumber() inserts the ninth digit of an eight-digit Brazilian mobile", () => {
  assert.equal(normalizeApiNumber("1187654321"), "5511987654321");
  assert.equal(normalizeApiNumber("+55 31 8765-4321"), "5531987654321");
  assert.equal(normalizeApiNumber("553187654321"), "5531987654321");
  // A landline (first local digit 2–5) keeps its eight digits.
  assert.equal(normalizeApiNumber("551133334444"), "551133334444");
});

Deno.test("normalizeApiNumber() keeps a country code written with + or 00", () => {
  assert.equal(normalizeApiNumber("+1 555 123 4567"), "15551234567");
  assert.equal(normalizeApiNumber("0044 20 7946 0958"), "442079460958");
  assert.equal(normalizeApiNumber("5511987654321"), "5511987654321");
});

Deno.test("ExternalSendInput requires number, body and openTicket, and queueId when opening", () => {
  const empty = ExternalSendInput.safeParse({});
  assert.equal(empty.success, false);
  const fields = Object.fromEntries(empty.error!.issues.map((i) => [i.path.join("."), i.message]));
  assert.deepEqual(fields, { number: "Required", body: "Required", openTicket: "Required" });

  const opening = ExternalSendInput.safeParse({ number: "5511987654321", body: "Oi", openTicket: 1 });
  assert.equal(opening.success, false);
  assert.deepEqual(opening.error!.issues.map((i) => [i.path.join("."), i.message]), [["queueId", "Required"]]);

  assert.deepEqual(
    ExternalSendInput.parse({ number: 5511987654321, body: " Oi ", openTicket: "1", queueId: "3" }),
    { number: "5511987654321", body: "Oi", openTicket: 1, queueId: 3 },
  );
  assert.equal(ExternalSendInput.parse({ number: "5511987654321", body: "Oi", openTicket: "0" }).openTicket, 0);
  assert.equal(ExternalSendInput.safeParse({ number: "1234", body: "Oi", openTicket: 0 }).error?.issues[0].message, "Too Short!");
  assert.equal(ExternalSendInput.safeParse({ number: "5511987654321", body: "Oi", openTicket: 2 }).success, false);
});

Deno.test("ExternalMediaInput needs no body; ExternalSendForm also needs the token", () => {
  assert.equal(ExternalMediaInput.safeParse({ number: "5511987654321", openTicket: "0" }).success, true);
  const form = ExternalSendForm.safeParse({ number: "5511987654321", body: "Oi", openTicket: 0 });
  assert.deepEqual(form.error?.issues.map((i) => i.path.join(".")), ["token"]);
});

Deno.test("takeToken() allows a burst, then refuses with Retry-After until it refills", () => {
  const limit = { perSecond: 2, burst: 3 };
  let bucket;
  for (let i = 0; i < 3; i++) {
    const step = takeToken(bucket, 1000, limit);
    assert.equal(step.allowed, true);
    bucket = step.bucket;
  }
  const refused = takeToken(bucket, 1000, limit);
  assert.deepEqual([refused.allowed, refused.retryAfter], [false, 1]);
  assert.equal(takeToken(refused.bucket, 1500, limit).allowed, true);
  const slow = takeToken({ tokens: 0, at: 0 }, 0, { perSecond: 0.25, burst: 1 });
  assert.equal(slow.retryAfter, 4);
});

Deno.test("IdempotencyKey accepts visible ASCII up to 255 characters", () => {
  assert.equal(IdempotencyKey.safeParse("order-42:retry").success, true);
  assert.equal(IdempotencyKey.safeParse("").success, false);
  assert.equal(IdempotencyKey.safeParse("with space").success, false);
  assert.equal(IdempotencyKey.safeParse("x".repeat(256)).success, false);
});

Deno.test("requestFingerprint() ignores number formatting and tells different contents apart", () => {
  const a = requestFingerprint({ number: "+55 (11) 98765-4321", openTicket: 0, body: "Oi" });
  assert.equal(a, requestFingerprint({ number: "5511987654321", openTicket: 0, body: "Oi" }));
  assert.notEqual(a, requestFingerprint({ number: "5511987654321", openTicket: 0, body: "Olá" }));
  const file = { name: "a.png", size: 3, type: "image/png", caption: "x" };
  assert.notEqual(
    requestFingerprint({ number: "5511987654321", openTicket: 0 }, [file]),
    requestFingerprint({ number: "5511987654321", openTicket: 0 }, [{ ...file, caption: "y" }]),
  );
});
