import assert from "node:assert/strict";
import { dueWarning } from "./TopBar.tsx";

const DAY = 86_400_000;
// Wednesday 2026-11-18 12:00 UTC
const now = Date.parse("2026-11-18T12:00:00Z");

Deno.test("dueWarning() is silent with 5 or more days left and warns 'vence em N dia(s)' under 5", () => {
  assert.equal(dueWarning(new Date(now + 5 * DAY).toISOString(), now), null);
  assert.equal(dueWarning(new Date(now + 3 * DAY).toISOString(), now), "Sua assinatura vence em 3 dia(s).");
  assert.equal(dueWarning(new Date(now).toISOString(), now), "Sua assinatura vence hoje.");
  assert.equal(dueWarning(null, now), null);
});

Deno.test("dueWarning() counts the working days left in the grace period once past due", () => {
  // Due Monday 2026-11-16: grace ends Thursday 2026-11-19; on Wednesday one working day is left.
  assert.equal(dueWarning("2026-11-16T12:00:00Z", now), "Assinatura vencida: acesso será revogado em 1 dia(s) útil(eis).");
});
