/**
 * What the messages area needs from the app, declared on its own floor (issue #23 §4): the
 * actor system and its KV, the token secret (signed media URLs), the media folder and the
 * outbound port to the channels. `server/start.ts` builds the app's deps, which hold all of
 * these, so the server passes its deps as they are; nothing here imports the server, and the
 * actor floor no longer depends on the HTTP floor.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { OutboundPort } from "../../domain/channel.ts";

export interface MessagesPorts {
  kv: Deno.Kv;
  system: ActorSystem;
  /** Token secret; media URLs are signed with a key derived from it (domain/media_url.ts). */
  secret: string;
  /** Hands outgoing messages to the channels. */
  outbound: OutboundPort;
  /** Where media files live (`{dataDir}/company{id}/{file}`). */
  config: { dataDir: string };
}
