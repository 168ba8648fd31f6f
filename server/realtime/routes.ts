/**
 * `GET /ws`: upgrades to a WebSocket and hands it to the hub (domain/realtime.ts describes
 * the protocol). A request that is not an upgrade gets 426. Deno's own idle timeout (protocol
 * pings) is off: liveness is the hub's 18 s application ping, one rule for every client.
 */
import { Hono } from "hono";
import { upgradeWebSocket } from "hono/deno";
import { WsQuery } from "../../domain/realtime.ts";
import type { AppEnv } from "../deps.ts";
import { parseQuery } from "../http/validate.ts";
import { authenticateSocket } from "./auth.ts";
import type { Connection } from "./connection.ts";

/** The `/ws` sub-app; mount it at `/ws`. */
export function realtimeRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get(
    "/",
    upgradeWebSocket((c) => {
      const deps = c.get("deps");
      const query = parseQuery(c, WsQuery);
      let conn: Connection | undefined;
      return {
        onOpen(_event, ws) {
          conn = deps.hub.open(ws.raw as WebSocket, query, (token: string) => authenticateSocket(deps, token));
        },
        onMessage(event) {
          if (conn) deps.hub.receive(conn, event.data);
        },
        onClose() {
          if (conn) deps.hub.detach(conn);
        },
        onError() {
          if (conn) deps.hub.detach(conn);
        },
      };
    }, { idleTimeout: 0 }),
    (c) => c.json({ error: "ERR_UPGRADE_REQUIRED", message: "GET /ws expects a WebSocket upgrade" }, 426),
  );
  return app;
}
