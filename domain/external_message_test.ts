import assert from "node:assert/strict";
import {
  ExternalMediaInput,
  ExternalSendForm,
  ExternalSendInput,
  IdempotencyKey,
  requestFingerprint,
  takeToken,
} from "./external_message.ts";

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
