/**
 * What a bench's server process says first: one `{"port": …}` JSON line on stdout, once it
 * listens. V8's GC trace (buffered C stdio) may print around it, so the line is found in the
 * text rather than taken as the first line; the rest is handed back for the trace readers.
 */

/** The port line's fields, when it arrived (`performance.now()`), and the output around it. */
export interface PortLine<T> {
  info: T;
  at: number;
  rest: string;
}

/** Reads `reader` until the port line; throws if the process closes its output first. */
export async function readPortLine<T extends { port: number }>(
  reader: ReadableStreamDefaultReader<string>,
): Promise<PortLine<T>> {
  let text = "";
  for (;;) {
    const found = text.match(/\{"port".*\n/);
    if (found) {
      const rest = text.slice(0, found.index) + text.slice(found.index! + found[0].length);
      return { info: JSON.parse(found[0]), at: performance.now(), rest };
    }
    const { value, done } = await reader.read();
    if (done) throw new Error("Server exited before listening");
    text += value;
  }
}

/** Keeps reading `reader` so the server never blocks on a full pipe (the text is dropped). */
export function discardRest(reader: ReadableStreamDefaultReader<string>): void {
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
}
