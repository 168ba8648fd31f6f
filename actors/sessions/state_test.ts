import assert from "node:assert/strict";
import { MAX_QR, MAX_RETRIES, reconnectDelay, type SessionState, sessionStep } from "./state.ts";

const fresh: SessionState = { v: 1, companyId: 1, whatsappId: 2, dropped: false, qrCount: 0, retries: 0 };

Deno.test("sessionStep() walks OPENING → qrcode → PAIRING → CONNECTED with the success flag", () => {
  let s = fresh;
  const opening = sessionStep(s, "DISCONNECTED", { type: "opening" });
  assert.equal(opening.record.status, "OPENING");
  const qr = sessionStep(opening.state, "OPENING", { type: "qr", qrcode: "abc" });
  assert.deepEqual([qr.record.status, qr.record.qrcode, qr.flags], ["qrcode", "abc", {}]);
  const pairing = sessionStep(qr.state, "qrcode", { type: "pairing" });
  assert.equal(pairing.record.status, "PAIRING");
  const open = sessionStep(pairing.state, "PAIRING", { type: "connected", number: "5511" });
  assert.deepEqual([open.record.status, open.record.qrcode, open.flags], ["CONNECTED", "", { success: true }]);
  s = open.state;
  assert.equal(s.retries, 0);
});

Deno.test("sessionStep() reconnects a dropped session with growing backoff, then gives up with TIMEOUT", () => {
  let s = fresh;
  let status: Parameters<typeof sessionStep>[1] = "CONNECTED";
  const delays: number[] = [];
  for (let i = 0; i < MAX_RETRIES; i++) {
    const step = sessionStep(s, status, { type: "disconnected", loggedOut: false, reason: "x" });
    if (i === 0) assert.deepEqual(step.flags, { dropped: true });
    assert.equal(step.record.status, "DISCONNECTED");
    delays.push(step.reconnectIn!);
    s = step.state;
    status = "OPENING";
  }
  assert.deepEqual(delays, [1, 2, 3, 4, 5, 6].map(reconnectDelay));
  assert.ok(delays.every((d, i) => i === 0 || d >= delays[i - 1]));
  const last = sessionStep(s, status, { type: "disconnected", loggedOut: false, reason: "x" });
  assert.equal(last.record.status, "TIMEOUT");
  assert.equal(last.stop, true);
  const back = sessionStep(last.state, "TIMEOUT", { type: "connected", number: "1" });
  assert.deepEqual(back.flags, { success: true });
  assert.equal(back.state.retries, 0);
});

Deno.test("sessionStep() flags a new QR after a logout and expires unscanned QRs", () => {
  const out = sessionStep(fresh, "CONNECTED", { type: "disconnected", loggedOut: true, reason: "logout" });
  assert.equal(out.reconnectIn, 0);
  const qr = sessionStep(out.state, "DISCONNECTED", { type: "qr", qrcode: "q" });
  assert.deepEqual(qr.flags, { new: true });
  let s = qr.state;
  for (let i = 1; i < MAX_QR; i++) s = sessionStep(s, "qrcode", { type: "qr", qrcode: `q${i}` }).state;
  const expired = sessionStep(s, "qrcode", { type: "qr", qrcode: "late" });
  assert.deepEqual([expired.record.status, expired.flags, expired.stop], ["DISCONNECTED", { expired: true }, true]);
});

Deno.test("sessionStep() turns a session stuck in OPENING into TIMEOUT and ignores a stale timeout", () => {
  const stuck = sessionStep(fresh, "OPENING", { type: "openTimeout" });
  assert.deepEqual([stuck.record.status, stuck.stop], ["TIMEOUT", true]);
  const stale = sessionStep(fresh, "CONNECTED", { type: "openTimeout" });
  assert.equal(stale.record.status, "CONNECTED");
  assert.equal(stale.stop, false);
});
