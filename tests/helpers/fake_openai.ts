/**
 * A fake OpenAI-compatible chat-completions endpoint on loopback: `POST /v1/chat/completions`
 * answers `{ id, object: "chat.completion", model, choices: [{ index, message: { role,
 * content }, finish_reason }], usage }` like the public API. `state.mode` makes it fail: HTTP
 * 500 with an OpenAI error body, an answer without choices, or one slower than the caller's
 * timeout. Every call is recorded with its Authorization header.
 */

/** One call the fake received. */
export interface CompletionCall {
  authorization: string | null;
  // deno-lint-ignore no-explicit-any -- tests assert on the posted JSON shapes
  body: any;
}

/** Starts the fake; `server.shutdown()` when done. */
export function fakeOpenAi() {
  const calls: CompletionCall[] = [];
  const state = {
    mode: "ok" as "ok" | "error500" | "noChoices" | "slow",
    slowMs: 3000,
    /** The answer's text; by default it quotes the customer's last message. */
    answer: null as string | null,
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return Response.json({ error: { message: "Not found", type: "invalid_request_error" } }, { status: 404 });
    }
    const body = await req.json().catch(() => undefined);
    calls.push({ authorization: req.headers.get("authorization"), body });
    if (state.mode === "error500") {
      return Response.json({ error: { message: "The server had an error", type: "server_error" } }, { status: 500 });
    }
    if (state.mode === "slow") await new Promise((r) => setTimeout(r, state.slowMs));
    const lastUser = [...(body?.messages ?? [])].reverse().find((m: { role: string }) => m.role === "user");
    const content = state.answer ?? `Olá! Sobre "${lastUser?.content ?? ""}", posso ajudar.`;
    return Response.json({
      id: "chatcmpl-fake",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: body?.model ?? "",
      choices: state.mode === "noChoices" ? [] : [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });
  return { server, calls, state, url: `http://127.0.0.1:${server.addr.port}/v1/chat/completions` };
}
