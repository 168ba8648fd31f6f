/** Users: stored shape, API shapes and the validation of the user modal (spec 000 §3, §5; 001 §2.12). */
import { z } from "zod";
import { SearchPage } from "./paging.ts";
import { can } from "./permissions.ts";
import { Email, Id, MAX, MSG, OptionalId, sized } from "./text.ts";

export const Profile = z.enum(["user", "supervisor", "admin"]);
export type Profile = z.infer<typeof Profile>;

/** A user as stored (the password hash never leaves the server). */
export const User = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  email: z.string(),
  passwordHash: z.string(),
  profile: Profile,
  super: z.boolean(),
  queueIds: z.array(z.number()),
  whatsappId: z.number().nullable(),
  farewellMessage: z.string(),
  /** Bumped to invalidate every refresh token of the user (logout, password change). */
  tokenVersion: z.number(),
  online: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type User = z.infer<typeof User>;

const Password = z.string().min(5, MSG.tooShort).max(50, MSG.tooLong);

/** POST /users body. */
export const UserCreate = z.object({
  name: sized(2, 50),
  email: Email,
  password: Password,
  profile: Profile.default("user"),
  super: z.boolean().optional(),
  companyId: Id.optional(),
  queueIds: z.array(Id).max(MAX.list, MSG.tooLong).default([]),
  whatsappId: OptionalId.optional(),
  farewellMessage: z.string().max(5000).default(""),
});
export type UserCreate = z.infer<typeof UserCreate>;

/** Texts of the current-password check (the user forms translate them). */
export const USER_MSG = {
  currentPasswordRequired: "Required",
  currentPasswordWrong: "Wrong password",
} as const;

/**
 * PUT /users/{id} body: every field optional; an empty password keeps the old one.
 * `currentPassword` is asked when users change their own password or e-mail
 * (needsCurrentPassword), and never stored.
 */
export const UserUpdate = z.object({
  name: sized(2, 50).optional(),
  email: Email.optional(),
  password: z.preprocess((v) => (v === "" || v === null ? undefined : v), Password.optional()),
  currentPassword: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z.string().max(MAX.credential, MSG.tooLong).optional(),
  ),
  profile: Profile.optional(),
  super: z.boolean().optional(),
  queueIds: z.array(Id).max(MAX.list, MSG.tooLong).optional(),
  whatsappId: OptionalId.optional(),
  farewellMessage: z.string().max(5000).optional(),
});
export type UserUpdate = z.infer<typeof UserUpdate>;

/**
 * Whether `patch` changes `target`'s credentials on their own behalf, which needs their current
 * password (issue #38): a new password, or an e-mail other than the stored one, sent by the
 * user themselves. An admin setting another user's password is a separate, audited reset.
 */
export function needsCurrentPassword(editorId: number, target: Pick<User, "id" | "email">, patch: UserUpdate): boolean {
  if (editorId !== target.id) return false;
  return patch.password !== undefined || (patch.email !== undefined && patch.email !== target.email);
}

/** POST /auth/login body. */
export const LoginInput = z.object({
  email: Email,
  password: z.string({ error: MSG.required }).min(1, MSG.required).max(MAX.credential, MSG.tooLong),
});
export type LoginInput = z.infer<typeof LoginInput>;

/** GET /users/ and GET /users/list query; `companyId` counts only for a super user. */
export const UserListQuery = SearchPage.extend({ companyId: OptionalId.optional() });
export type UserListQuery = z.infer<typeof UserListQuery>;

/** Who edits a user, as far as the edit rule needs. */
export interface UserEditor {
  id: number;
  profile: Profile;
  super: boolean;
}

/**
 * Why `editor` may not apply `patch` to `target`, or null when it may (spec 000 §6, 001 §6,
 * through the rule table of permissions.ts): whoever holds `users:manage` (admins) edits
 * anyone of the company; anyone else edits only their own name, e-mail, password and
 * farewell message; only a super user sets `super` or edits a super user. A field sent with
 * its current value is not a change (the user modal sends every field).
 */
export function userEditError(
  editor: UserEditor,
  target: Pick<User, "id" | "profile" | "super" | "queueIds" | "whatsappId">,
  patch: UserUpdate,
): string | null {
  const superOk = can(editor, "user-modal:editSuper");
  if (patch.super !== undefined && patch.super !== target.super && !superOk) {
    return "Only a super user may set the super flag";
  }
  if (target.super && !superOk) return `User ${target.id} is a super user`;
  const manager = can(editor, "users:manage");
  if (editor.id !== target.id && !manager) return `Only an admin may edit user ${target.id}`;
  const sameQueues = patch.queueIds === undefined ||
    [...patch.queueIds].sort().join() === [...target.queueIds].sort().join();
  if (patch.profile !== undefined && patch.profile !== target.profile) {
    if (!can(editor, "user-modal:editProfile")) return "Only an admin may change a profile";
  }
  if (!sameQueues && !can(editor, "user-modal:editQueues")) return "Only an admin may change queues";
  if (patch.whatsappId !== undefined && patch.whatsappId !== target.whatsappId && !manager) {
    return "Only an admin may change the default connection";
  }
  return null;
}
