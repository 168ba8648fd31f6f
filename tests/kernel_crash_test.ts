import assert from "node:assert/strict";

const ACKS_BEFORE_KILL = 2000;

/** Reads `stream` line by line, calling `onLine` for each complete line, until it ends. */
async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void) {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of stream) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = lines.pop()!; // an unfinished last line was not fully printed: not an ack
    for (const line of lines) onLine(line);
  }
}

Deno.test("ActorSystem loses no acknowledged write when the process is SIGKILLed mid-load", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kernel_crash_" });
  const kvPath = `${dir}/crash.kv`;
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "tests/fixtures/kernel_write_load.ts", kvPath],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const acked = new Set<number>();
    let killed = false;
    const timeout = setTimeout(() => {
      if (!killed) child.kill("SIGKILL");
    }, 90_000);
    const stderr = new Response(child.stderr).text();
    try {
      await readLines(child.stdout, (line) => {
        acked.add(Number(line));
        if (!killed && acked.size >= ACKS_BEFORE_KILL) {
          killed = true;
          child.kill("SIGKILL");
        }
      });
    } finally {
      clearTimeout(timeout);
    }
    const status = await child.status;
    assert.ok(killed, `writer stopped after ${acked.size} acks: ${await stderr}`);
    assert.equal(status.signal, "SIGKILL");
    assert.ok(acked.size >= ACKS_BEFORE_KILL);

    const kv = await Deno.openKv(kvPath);
    try {
      const stored = new Set<number>();
      for await (const entry of kv.list<{ id: number }>({ prefix: ["acked"] })) {
        stored.add(entry.value.id);
      }
      const lost = [...acked].filter((id) => !stored.has(id));
      assert.deepEqual(lost, [], `${lost.length} of ${acked.size} acknowledged writes lost`);
    } finally {
      kv.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
