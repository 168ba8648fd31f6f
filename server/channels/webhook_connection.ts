/**
 * Which connection a channel webhook is for (server/api/webhooks.ts), shared with the cluster's
 * router (server/cluster/router.ts), which sends the request to the process holding that
 * connection's company: both find it the same way, by the connection id in the URL and the
 * secret the request carries.
 */
import type { Provider, Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { connectionDirectory } from "../cluster/directory.ts";
import { evolutionWebhookSecret } from "./evolution.ts";
import { sameToken, signBody } from "./webhook.ts";

/**
 * The connection `id` of provider `provider` whose secret passes `accept`, in whichever company
 * (connection ids are per company). Read from the store's records (server/cluster/
 * directory.ts), not the companies' actors: in a process of several (issue #35) the router
 * finds the owner with the same lookup, and only the owner's actors may be woken. A miss lists
 * the records again, for a connection created or changed a moment ago.
 */
export async function findConnection(
  deps: AppDeps,
  id: number,
  provider: Provider,
  accept: (w: Whatsapp) => boolean | Promise<boolean>,
): Promise<Whatsapp | undefined> {
  const directory = connectionDirectory(deps);
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await directory.refresh();
    for (const w of await directory.withId(id)) {
      if (w.provider === provider && await accept(w)) return w;
    }
  }
  return undefined;
}

/** The webhooks' checks of a request against a connection's secrets. */
export const webhookChecks = {
  /** Evolution: the URL's token is the connection's own webhook secret (#38). */
  evolution: async (deps: AppDeps, w: Whatsapp, token: string) =>
    sameToken(await evolutionWebhookSecret(deps.secret, w.companyId, w.id), token),
  /** Cloud API verification: Meta echoes the connection's verify token. */
  cloudVerify: (w: Whatsapp, token: string) => sameToken(w.cloudVerifyToken, token),
  /** Cloud API delivery: the body signed with the connection's app secret. */
  cloudSigned: async (w: Whatsapp, raw: string, signature: string) =>
    w.cloudAppSecret !== "" && sameToken(await signBody(w.cloudAppSecret, raw), signature),
};
