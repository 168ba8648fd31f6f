/**
 * A fake Typebot (builder API and viewer in one server) on loopback, built from the public
 * API's shapes: GET /api/v1/workspaces, GET /api/v1/typebots?workspaceId, GET
 * /api/v1/typebots/{id} (for the public id), POST /api/v1/typebots/{publicId}/startChat and
 * POST /api/v1/sessions/{sessionId}/continueChat with markdown text bubbles and a choice input.
 *
 * Its one flow ("Triagem", public id `triagem-abc`): a greeting and a choice (Vendas,
 * Suporte) → after the choice a question with a text input → after the answer a goodbye and
 * no input (the flow ends). `state.mode` makes every chat call fail: HTTP 500, a body that is
 * not JSON, or an answer slower than the caller's timeout. Every call is recorded.
 */

/** One request the fake received. */
export interface TypebotCall {
  method: string;
  path: string;
  authorization: string | null;
  // deno-lint-ignore no-explicit-any -- tests assert on the posted JSON shapes
  body: any;
}

export const TYPEBOT_TOKEN = "tb-token-123";
export const TYPEBOT_ID = "clx-triagem";
export const TYPEBOT_PUBLIC_ID = "triagem-abc";

const markdown = (id: string, text: string) => ({ id, type: "text", content: { type: "markdown", markdown: text } });

/** Starts the fake; `server.shutdown()` when done. */
export function fakeTypebot() {
  const calls: TypebotCall[] = [];
  const state = {
    mode: "ok" as "ok" | "error500" | "badJson" | "slow",
    slowMs: 3000,
    /** sessionId → how many replies it took. */
    sessions: new Map<string, number>(),
  };
  let nextSession = 1;
  const bearer = (req: Request) => req.headers.get("authorization") === `Bearer ${TYPEBOT_TOKEN}`;
  const unauthorized = () => Response.json({ message: "You must be logged in", code: "UNAUTHORIZED" }, { status: 401 });

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = req.method === "POST" ? await req.text() : "";
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch { /* recorded as undefined */ }
    calls.push({ method: req.method, path: url.pathname + url.search, authorization: req.headers.get("authorization"), body });
    const path = url.pathname;

    if (req.method === "GET" && path === "/api/v1/workspaces") {
      if (!bearer(req)) return unauthorized();
      return Response.json({ workspaces: [{ id: "ws-1", name: "Atendimento", icon: null, plan: "FREE" }] });
    }
    if (req.method === "GET" && path === "/api/v1/typebots") {
      if (!bearer(req)) return unauthorized();
      if (url.searchParams.get("workspaceId") !== "ws-1") return Response.json({ message: "Workspace not found" }, { status: 404 });
      return Response.json({
        typebots: [
          { id: TYPEBOT_ID, name: "Triagem", icon: null, publishedTypebotId: "pub-1", accessRight: "write" },
          { id: "clx-rascunho", name: "Rascunho", icon: null, accessRight: "write" },
        ],
      });
    }
    const one = /^\/api\/v1\/typebots\/([^/]+)$/.exec(path);
    if (req.method === "GET" && one) {
      if (!bearer(req)) return unauthorized();
      if (one[1] !== TYPEBOT_ID) return Response.json({ message: "Typebot not found" }, { status: 404 });
      return Response.json({ typebot: { id: TYPEBOT_ID, name: "Triagem", publicId: TYPEBOT_PUBLIC_ID }, currentUserMode: "write" });
    }

    const failure = await failed(state);
    if (failure) return failure;
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(path);
    if (req.method === "POST" && start) {
      if (start[1] !== TYPEBOT_PUBLIC_ID) return Response.json({ message: "Typebot not found" }, { status: 404 });
      const sessionId = `sess-${nextSession++}`;
      state.sessions.set(sessionId, 0);
      const name = (body as { prefilledVariables?: { name?: string } })?.prefilledVariables?.name ?? "";
      return Response.json({
        sessionId,
        resultId: `res-${sessionId}`,
        typebot: { id: TYPEBOT_ID, version: "6", theme: {}, settings: {} },
        messages: [markdown("b1", `Olá **${name || "cliente"}**! Sou o assistente virtual.`)],
        input: {
          id: "in1",
          type: "choice input",
          items: [{ id: "i1", content: "Vendas" }, { id: "i2", content: "Suporte" }],
          options: { isMultipleChoice: false },
        },
      });
    }
    const cont = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(path);
    if (req.method === "POST" && cont) {
      const step = state.sessions.get(cont[1]);
      if (step === undefined) return Response.json({ message: "Session not found.", code: "NOT_FOUND" }, { status: 404 });
      state.sessions.set(cont[1], step + 1);
      const message = (body as { message?: string })?.message ?? "";
      if (step === 0) {
        return Response.json({
          messages: [markdown("b2", `Você escolheu ${message}. Qual é o seu pedido?`)],
          input: { id: "in2", type: "text input", options: {} },
        });
      }
      return Response.json({ messages: [markdown("b3", "Obrigado! Um atendente vai continuar daqui.")] });
    }
    return Response.json({ message: "Not found" }, { status: 404 });
  });
  return {
    server,
    calls,
    state,
    url: `http://127.0.0.1:${server.addr.port}`,
    /** The chat calls (startChat and continueChat) in order. */
    chatCalls: () => calls.filter((c) => c.method === "POST"),
  };
}

/** The failure `state.mode` asks for, or null to answer normally. */
async function failed(state: { mode: string; slowMs: number }): Promise<Response | null> {
  switch (state.mode) {
    case "error500":
      return Response.json({ message: "Internal server error", code: "INTERNAL_SERVER_ERROR" }, { status: 500 });
    case "badJson":
      return new Response("{ not json", { headers: { "content-type": "application/json" } });
    case "slow":
      await new Promise((r) => setTimeout(r, state.slowMs));
      return Response.json({ messages: [] });
    default:
      return null;
  }
}
