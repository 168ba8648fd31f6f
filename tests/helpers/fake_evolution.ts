/**
 * A fake Evolution API v2 server on loopback for adapter tests: records every call and
 * answers like Evolution (instance create/connect/state/logout, webhook set, sends, findMessages,
 * whatsappNumbers, findContacts, findChats, group create/participants/updateParticipant).
 * Tests steer it through `state`.
 */

/** One request the fake received. */
export interface EvolutionCall {
  method: string;
  path: string;
  body: unknown;
  apikey: string | null;
}

/** Starts the fake; `shutdown()` its `server` when done. */
export function fakeEvolution() {
  const calls: EvolutionCall[] = [];
  const state = {
    connection: "close",
    stored: [] as unknown[],
    sent: 0,
    /** Rows `chat/findContacts` answers. */
    contacts: [] as unknown[],
    /** Rows `chat/findChats` answers. */
    chats: [] as unknown[],
    /** When set, `chat/findContacts` and `chat/findChats` answer 500. */
    failLists: false,
    /** Groups made through `group/create`: jid → participant numbers. */
    groups: new Map<string, string[]>(),
    /** Instance names that exist already: `instance/create` answers 403 for them, as Evolution does. */
    existing: new Set<string>(),
    /** The webhook URL each instance posts to (set by `instance/create` or `webhook/set`). */
    webhooks: new Map<string, string>(),
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    const body = text ? JSON.parse(text) : undefined;
    calls.push({ method: req.method, path: url.pathname, body, apikey: req.headers.get("apikey") });
    const json = (value: unknown, status = 200) => Response.json(value, { status });
    const [, area, action, instance] = url.pathname.split("/");
    if (area === "instance" && action === "create") {
      if (state.existing.has(body.instanceName)) return json({ status: 403, error: "Forbidden", response: { message: ["This name is already in use."] } }, 403);
      state.existing.add(body.instanceName);
      state.webhooks.set(body.instanceName, body.webhook?.url);
      return json({ instance: { instanceName: body.instanceName, status: "created" } }, 201);
    }
    if (area === "webhook" && action === "set") {
      state.webhooks.set(instance, body.webhook?.url);
      return json({ webhook: { instanceName: instance, webhook: body.webhook } }, 201);
    }
    if (area === "instance" && action === "connectionState") return json({ instance: { instanceName: instance, state: state.connection } });
    if (area === "instance" && action === "connect") return json({ pairingCode: null, code: "2@EVOLUTIONQR", base64: "data:image/png;base64,AAAA", count: 1 });
    if (area === "instance" && action === "logout") return json({ status: "SUCCESS" });
    if (area === "message" && (action === "sendText" || action === "sendMedia")) {
      return json({ key: { remoteJid: `${body.number}@s.whatsapp.net`, fromMe: true, id: `EVO${++state.sent}` }, status: "PENDING" }, 201);
    }
    if (area === "chat" && action === "findMessages") return json({ messages: { total: state.stored.length, records: state.stored } });
    if (area === "chat" && action === "whatsappNumbers") return json(body.numbers.map((n: string) => ({ exists: true, jid: `${n}@s.whatsapp.net`, number: n })));
    if (area === "chat" && (action === "findContacts" || action === "findChats")) {
      if (state.failLists) return json({ status: 500, error: "Internal Server Error" }, 500);
      return json(action === "findContacts" ? state.contacts : state.chats);
    }
    if (area === "group" && action === "create") {
      const jid = `1203630000${state.groups.size + 1}@g.us`;
      state.groups.set(jid, [...body.participants]);
      return json({ id: jid, subject: body.subject, participants: body.participants.map((n: string) => ({ id: `${n}@s.whatsapp.net` })) }, 201);
    }
    const members = state.groups.get(url.searchParams.get("groupJid") ?? "");
    if (area === "group" && action === "participants" && members) {
      return json({ participants: members.map((n) => ({ id: `${n}@s.whatsapp.net`, admin: null })) });
    }
    if (area === "group" && action === "updateParticipant" && members && body.action === "add") {
      members.push(...body.participants);
      return json({ updateParticipants: body.participants.map((n: string) => ({ status: "200", jid: `${n}@s.whatsapp.net` })) }, 201);
    }
    return json({ error: "not found" }, 404);
  });
  return { calls, state, server, url: `http://127.0.0.1:${server.addr.port}` };
}
