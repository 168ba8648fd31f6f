/** kv_bulk_load_test.ts's worker: posts the entries it is sent through `postRows`. */
import { postRows, type WorkerScope } from "./kv_bulk_load.ts";

const scope = self as unknown as WorkerScope;
scope.addEventListener("message", (event) => {
  if (event.data === "credit") return;
  const entries = event.data as Array<[Deno.KvKey, unknown]>;
  postRows(scope, entries, () => entries.length);
});
