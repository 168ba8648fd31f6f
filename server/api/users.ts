/**
 * Users (spec 000 §7, 001 §2.12, §2.13, §7). Everyone of a company lists and reads its
 * users; admins create, edit and delete them; anyone edits their own name, e-mail, password
 * and farewell message, giving the current password to change the password or the e-mail
 * (#38; an admin setting another user's password is audited as `user.password`). A super
 * user may name another company (`companyId`) and reach its users; for everyone else a user
 * of another company does not exist (404).
 */
import { Hono } from "hono";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { createUser } from "../../actors/platform/commands.ts";
import { companyPlan, companyUsers, getCompany, getUser } from "../../actors/platform/lookup.ts";
import { noUser, removeUser, updateUser } from "../../actors/platform/user_commands.ts";
import { queues } from "../../actors/queues/collection.ts";
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { forbidden, notFound } from "../../domain/errors.ts";
import { matchesSearch, paginate } from "../../domain/paging.ts";
import { can, type Principal } from "../../domain/permissions.ts";
import { needsCurrentPassword, UserCreate, UserListQuery, userEditError, UserUpdate } from "../../domain/user.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { hashPassword } from "../auth/passwords.ts";
import { assertCurrentPassword } from "../auth/current_password.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { userView, userViewer } from "./users_view.ts";
import { recordAudit } from "../audit/record.ts";
import { changedFields } from "../../domain/audit.ts";

/** The company a request acts on: the caller's own, or the one a super user names. */
function scopeCompany(who: Principal, named: number | null | undefined): number {
  return who.super && named ? named : who.companyId;
}

/** The user if `who` may see it (same company, or super), else the 404. */
async function visibleUser(system: ActorSystem, who: Principal, id: number) {
  const user = await getUser(system, id);
  if (!user || (!who.super && user.companyId !== who.companyId)) throw noUser(id);
  return user;
}

/** Throws the 404 of a queue or connection that is not of company `companyId`. */
async function assertCompanyRefs(
  system: ActorSystem,
  companyId: number,
  queueIds: number[] | undefined,
  whatsappId: number | null | undefined,
): Promise<void> {
  if (queueIds?.length) {
    const own = await queues.in(system, companyId).records();
    const missing = queueIds.find((id) => !own.has(id));
    if (missing !== undefined) throw notFound("ERR_NO_QUEUE_FOUND", `Queue ${missing} not found`);
  }
  if (whatsappId) {
    if (!(await whatsapps.in(system, companyId).get(whatsappId))) {
      throw notFound("ERR_NO_WAPP_FOUND", `Connection ${whatsappId} not found`);
    }
  }
}

/** The user routes, mounted at `/users` (and `/users/`). */
export function userRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  const manage = requirePermission("users:manage");

  app.get("/", auth, async (c) => {
    const { system } = c.get("deps");
    const query = parseQuery(c, UserListQuery);
    const companyId = scopeCompany(c.get("principal"), query.companyId);
    const all = (await companyUsers(system, companyId))
      .filter((u) => matchesSearch(query.searchParam, u.name, u.email))
      .sort((a, b) => a.name.localeCompare(b.name));
    const page = paginate(all, query.pageNumber);
    const view = await userViewer(system, companyId);
    return c.json({ users: page.rows.map(view), count: page.count, hasMore: page.hasMore });
  });

  app.get("/list", auth, async (c) => {
    const { system } = c.get("deps");
    const query = parseQuery(c, UserListQuery);
    const companyId = scopeCompany(c.get("principal"), query.companyId);
    const view = await userViewer(system, companyId);
    const all = (await companyUsers(system, companyId)).sort((a, b) => a.name.localeCompare(b.name));
    return c.json(all.map(view));
  });

  app.get("/:id", auth, async (c) => {
    const { system } = c.get("deps");
    const id = idParam(c, "id", () => noUser(Number(c.req.param("id"))));
    return c.json(await userView(system, await visibleUser(system, c.get("principal"), id)));
  });

  app.post("/", auth, manage, async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const input = await parseBody(c, UserCreate);
    if (input.super && !can(who, "user-modal:editSuper")) throw forbidden("Only a super user may set the super flag");
    const companyId = scopeCompany(who, input.companyId);
    if (!(await getCompany(deps.system, companyId))) {
      throw notFound("ERR_NO_COMPANY_FOUND", `Company ${companyId} not found`);
    }
    await assertCompanyRefs(deps.system, companyId, input.queueIds, input.whatsappId);
    const plan = await companyPlan(deps.system, companyId);
    const user = await createUser(deps.system, {
      companyId,
      name: input.name,
      email: input.email,
      passwordHash: await hashPassword(input.password, deps.config.passwordHash),
      profile: input.profile,
      super: input.super ?? false,
      queueIds: input.queueIds,
      whatsappId: input.whatsappId ?? null,
      farewellMessage: input.farewellMessage,
    }, plan?.users ?? 0);
    await recordAudit(deps, who, "user.create", { kind: "user", id: user.id, name: user.name }, {
      email: user.email,
      profile: user.profile,
    }, { companyId: user.companyId });
    return c.json(await userView(deps.system, user), 201);
  });

  app.put("/:id", auth, async (c) => {
    const deps = c.get("deps");
    const who = c.get("principal");
    const id = idParam(c, "id", () => noUser(Number(c.req.param("id"))));
    const target = await visibleUser(deps.system, who, id);
    const input = await parseBody(c, UserUpdate);
    const problem = userEditError(who, target, input);
    if (problem) throw forbidden(problem);
    if (needsCurrentPassword(who.id, target, input)) await assertCurrentPassword(c, target, input.currentPassword);
    await assertCompanyRefs(deps.system, target.companyId, input.queueIds, input.whatsappId);
    const { password, currentPassword: _, ...rest } = input;
    const user = await updateUser(deps.system, who.super ? null : who.companyId, id, {
      ...rest,
      passwordHash: password ? await hashPassword(password, deps.config.passwordHash) : undefined,
    });
    const about = { kind: "user", id: user.id, name: user.name } as const;
    // Setting someone else's password is a reset, its own entry (#38); one's own change with
    // the current password stays a field of the update.
    const reset = password !== undefined && who.id !== target.id;
    const fields = changedFields(reset ? rest : { ...rest, password }, target);
    if (reset) await recordAudit(deps, who, "user.password", about, {}, { companyId: user.companyId });
    if (fields.length > 0 || !reset) await recordAudit(deps, who, "user.update", about, { fields }, { companyId: user.companyId });
    return c.json(await userView(deps.system, user));
  });

  app.delete("/:id", auth, manage, async (c) => {
    const { system } = c.get("deps");
    const who = c.get("principal");
    const id = idParam(c, "id", () => noUser(Number(c.req.param("id"))));
    const target = await visibleUser(system, who, id);
    if (target.id === who.id) throw forbidden("You cannot delete your own user");
    if (target.super && !can(who, "user-modal:editSuper")) throw forbidden(`User ${id} is a super user`);
    await removeUser(system, who.super ? null : who.companyId, id);
    await recordAudit(c.get("deps"), who, "user.delete", { kind: "user", id, name: target.name }, { email: target.email }, {
      companyId: target.companyId,
    });
    return c.json({ message: "User deleted" });
  });

  return app;
}
