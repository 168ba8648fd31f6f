import assert from "node:assert/strict";
import type { DashRow } from "./aggregates.ts";
import { DashRows } from "./rows.ts";

const row = (at: number, ticketId: number, queueKey = 0, userKey = 0): DashRow => ({ at, ticketId, contactId: ticketId + 1000, queueKey, userKey, rate: ticketId % 5 });

Deno.test("DashRows keeps rows in time order through inserts out of order and growth, and finds the first row at a time", () => {
  const rows = new DashRows();
  const model: DashRow[] = [];
  for (let n = 0; n < 300; n++) {
    const r = row(n * 10 - (n % 7 === 0 ? 35 : 0), n, n % 3, n % 4);
    rows.insert(r);
    let i = model.length;
    while (i > 0 && model[i - 1].at > r.at) i--;
    model.splice(i, 0, r);
  }
  assert.equal(rows.length, 300);
  assert.deepEqual([...rows], model);
  assert.deepEqual(rows.get(5), model[5]);
  assert.equal(rows.queueKeyOf(7), model[7].queueKey);
  assert.equal(rows.userKeyOf(7), model[7].userKey);
  for (const at of [-100, 0, 15, 1000, 5000]) {
    assert.equal(rows.firstAt(at), model.findIndex((r) => r.at >= at) === -1 ? 300 : model.findIndex((r) => r.at >= at));
  }
});

Deno.test("DashRows.sortByTime orders pushed rows stably", () => {
  const rows = new DashRows();
  for (const r of [row(30, 1), row(10, 2), row(30, 3), row(20, 4)]) rows.push(r);
  rows.sortByTime();
  assert.deepEqual([...rows].map((r) => r.ticketId), [2, 4, 1, 3]);
});
