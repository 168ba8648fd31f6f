/** Users as the users endpoints return them: no secrets, queues and connection expanded. */
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { publicUser } from "../../actors/platform/collections.ts";
import { queues } from "../../actors/queues/collection.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { User } from "../../domain/user.ts";
import { isoDate } from "../../domain/iso_date.ts";

/** Builds a view function for users of one company (queues and connections read once). */
export async function userViewer(system: ActorSystem, companyId: number) {
  const [queueMap, whatsappMap] = await Promise.all([
    queues.in(system, companyId).records(),
    whatsapps.in(system, companyId).records(),
  ]);
  return (user: User) => {
    const whatsapp = user.whatsappId === null ? undefined : whatsappMap.get(user.whatsappId);
    return {
      ...publicUser(user),
      createdAt: isoDate(user.createdAt),
      updatedAt: isoDate(user.updatedAt),
      queues: user.queueIds.flatMap((id) => {
        const q = queueMap.get(id);
        return q ? [{ id: q.id, name: q.name, color: q.color }] : [];
      }),
      whatsapp: whatsapp ? { id: whatsapp.id, name: whatsapp.name } : null,
    };
  };
}

/** One user's view. */
export async function userView(system: ActorSystem, user: User) {
  return (await userViewer(system, user.companyId))(user);
}
