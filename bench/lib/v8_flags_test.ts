/** The start task's settings as the benches read them (v8_flags.ts). */
import assert from "node:assert/strict";
import { PRODUCTION_ENV, PRODUCTION_V8_FLAGS } from "./v8_flags.ts";

Deno.test("the benches' servers get the start task's V8 flags and environment", () => {
  assert.match(PRODUCTION_V8_FLAGS, /--max-semi-space-size=\d+/);
  // Without the first, requests wait behind background slices for 61 turns of the loop; the
  // second loads React's production builds for the pages (server/main.ts).
  assert.deepEqual(PRODUCTION_ENV, { DENO_TOKIO_EVENT_INTERVAL: "1", NODE_ENV: "production" });
});
