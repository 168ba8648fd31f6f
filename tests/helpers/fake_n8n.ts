/**
 * A fake n8n on loopback: the public API's GET /api/v1/workflows (header X-N8N-API-KEY,
 * `{ data, nextCursor }` pages of workflows with their nodes) and the production webhooks
 * POST /webhook/{path}, which answer like a "Respond to Webhook" node with all items:
 * `[{ output: "…" }]`. `state.mode` makes webhooks fail: HTTP 500, a body that is not JSON,
 * or an answer slower than the caller's timeout. Every webhook call is recorded.
 */

export const N8N_API_KEY = "n8n-key-456";

/** One webhook call the fake received. */
export interface N8nCall {
  path: string;
  // deno-lint-ignore no-explicit-any -- tests assert on the posted JSON shapes
  body: any;
}

const workflow = (id: string, name: string, path: string | null) => ({
  id,
  name,
  active: path !== null,
  nodes: path === null ? [{ type: "n8n-nodes-base.manualTrigger", parameters: {} }] : [
    { type: "n8n-nodes-base.webhook", parameters: { path, httpMethod: "POST" } },
    { type: "n8n-nodes-base.respondToWebhook", parameters: {} },
  ],
});

/** Starts the fake; `server.shutdown()` when done. */
export function fakeN8n() {
  const calls: N8nCall[] = [];
  const state = { mode: "ok" as "ok" | "error500" | "badJson" | "slow", slowMs: 3000 };
  const pages = [
    [workflow("1", "Atendimento IA", "atendimento"), workflow("2", "Rascunho", null)],
    [workflow("3", "Pedidos", "pedidos")],
  ];

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/api/v1/workflows") {
      if (req.headers.get("x-n8n-api-key") !== N8N_API_KEY) {
        return Response.json({ message: "unauthorized" }, { status: 401 });
      }
      const page = url.searchParams.get("cursor") === "page-2" ? 1 : 0;
      return Response.json({ data: pages[page], nextCursor: page === 0 ? "page-2" : null });
    }
    const hook = /^\/webhook\/(.+)$/.exec(url.pathname);
    if (req.method === "POST" && hook) {
      const body = await req.json().catch(() => undefined);
      calls.push({ path: hook[1], body });
      if (state.mode === "error500") return Response.json({ message: "Workflow could not be started!" }, { status: 500 });
      if (state.mode === "badJson") return new Response("<html>oops", { headers: { "content-type": "application/json" } });
      if (state.mode === "slow") await new Promise((r) => setTimeout(r, state.slowMs));
      return Response.json([{ output: `n8n (${hook[1]}) recebeu: ${body?.text ?? ""}` }]);
    }
    return Response.json({ code: 404, message: "The requested webhook is not registered." }, { status: 404 });
  });
  return { server, calls, state, url: `http://127.0.0.1:${server.addr.port}` };
}
