/**
 * Serialized changes of existing users (the users collection is platform-wide, so the
 * e-mail uniqueness check and the write happen in one step of its actor).
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { definedOnly } from "../../domain/patch.ts";
import type { Profile, User } from "../../domain/user.ts";
import { PLATFORM, users } from "./collections.ts";
import { assertEmailFree } from "./commands.ts";

/** The 404 of a user that does not exist (or belongs to another company). */
export const noUser = (id: number) => notFound("ERR_NO_USER_FOUND", `User ${id} not found`);

/** Fields of a user that an update may change; `passwordHash` set means a new password. */
export interface UserPatch {
  name?: string;
  email?: string;
  passwordHash?: string;
  profile?: Profile;
  super?: boolean;
  queueIds?: number[];
  whatsappId?: number | null;
  farewellMessage?: string;
}

/**
 * Updates user `id` of company `companyId` (null: any company, for super users). A new
 * password bumps `tokenVersion`, which revokes every refresh token of the user.
 */
export function updateUser(
  system: ActorSystem,
  companyId: number | null,
  id: number,
  patch: UserPatch,
): Promise<User> {
  return users.in(system, PLATFORM).transact((view) => {
    const old = view.records.get(id);
    if (!old || (companyId !== null && old.companyId !== companyId)) throw noUser(id);
    if (patch.email !== undefined) assertEmailFree(view.records, patch.email, id);
    const next: User = {
      ...old,
      ...definedOnly(patch),
      tokenVersion: patch.passwordHash ? old.tokenVersion + 1 : old.tokenVersion,
      updatedAt: view.now,
    };
    return { put: [next], reply: next };
  });
}

/** Deletes user `id` of company `companyId` (null: any company). Replies with the user. */
export function removeUser(
  system: ActorSystem,
  companyId: number | null,
  id: number,
): Promise<User> {
  return users.in(system, PLATFORM).transact((view) => {
    const old = view.records.get(id);
    if (!old || (companyId !== null && old.companyId !== companyId)) throw noUser(id);
    return { remove: [id], reply: old };
  });
}

/** Deletes every user of a company (when the company is deleted). Replies with the count. */
export function removeCompanyUsers(system: ActorSystem, companyId: number): Promise<number> {
  return users.in(system, PLATFORM).transact((view) => {
    const ids = [...view.records.values()].filter((u) => u.companyId === companyId).map((u) =>
      u.id
    );
    if (ids.some((id) => view.records.get(id)?.super)) {
      throw new AppError("ERR_NO_PERMISSION", {
        status: 403,
        message: `Company ${companyId} has a super user and cannot be deleted`,
      });
    }
    return { remove: ids, reply: ids.length };
  });
}
