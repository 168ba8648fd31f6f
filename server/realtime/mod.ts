/** The realtime hub: live events over `/ws` (DESIGN §5, issue #5). */
export { Hub, type HubOptions } from "./hub.ts";
export { realtimeRoutes } from "./routes.ts";
