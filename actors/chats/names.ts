/** User names for chat views, read from the platform's users collection (in memory). */
import type { ActorSystem } from "../_runtime/system.ts";
import { PLATFORM, users } from "../platform/collections.ts";

/** A lookup of user names by id ("" for a user deleted since). */
export async function userNames(system: ActorSystem): Promise<(id: number) => string> {
  const records = await users.in(system, PLATFORM).records();
  return (id) => records.get(id)?.name ?? "";
}
