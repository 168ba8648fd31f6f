import assert from "node:assert/strict";
import { HttpConnection } from "./http_client.ts";

Deno.test("HttpConnection reads sized and chunked bodies and keeps the connection", async () => {
  const big = "x".repeat(200_000);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/sized") return new Response(`hello ${request.headers.get("x-name")}`);
    if (url.pathname === "/big") return new Response(big);
    if (url.pathname === "/echo") return new Response(await request.text(), { status: 201 });
    if (url.pathname === "/empty") return new Response(null, { status: 204 });
    // A streamed body goes out chunked.
    const parts = ["one,", "two,", "three"];
    return new Response(
      new ReadableStream({
        pull(controller) {
          const next = parts.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      }),
    );
  });
  const connection = await HttpConnection.open("127.0.0.1", server.addr.port);
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  try {
    for (let round = 0; round < 3; round++) {
      const sized = await connection.request("GET", "/sized", { "x-name": "ana" });
      assert.equal(sized.status, 200);
      assert.equal(text(sized.body), "hello ana");
      const chunked = await connection.request("GET", "/chunked");
      assert.equal(text(chunked.body), "one,two,three");
      const large = await connection.request("GET", "/big");
      assert.equal(large.body.length, big.length);
      const echo = await connection.request("POST", "/echo", { "content-type": "text/plain" }, "olá");
      assert.equal(echo.status, 201);
      assert.equal(text(echo.body), "olá");
      const empty = await connection.request("GET", "/empty");
      assert.equal(empty.status, 204);
      assert.equal(empty.body.length, 0);
    }
  } finally {
    connection.close();
    await server.shutdown();
  }
});
