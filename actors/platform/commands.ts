/**
 * Serialized writes of the platform collections that several callers share (the API, the
 * sign-up, the demo seed). Password hashing happens before the actor is asked, so the
 * actor's mailbox never waits on argon2.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import { AppError } from "../../domain/errors.ts";
import { type Company, NO_BILLING } from "../../domain/company.ts";
import { DEFAULT_SCHEDULES } from "../../domain/queue.ts";
import { assertPlanNameFree, type Plan } from "../../domain/plan.ts";
import type { Profile, User } from "../../domain/user.ts";
import { companies, PLATFORM, plans, users } from "./collections.ts";

const duplicatedEmail = (email: string) =>
  new AppError("ERR_DUPLICATED_EMAIL", {
    status: 409,
    message: "An user with this email already exists.",
    fields: { email: `E-mail ${email} is already in use` },
  });

/** Throws when another user already has `email`. */
export function assertEmailFree(records: ReadonlyMap<number, User>, email: string, selfId = 0) {
  for (const u of records.values()) {
    if (u.email === email && u.id !== selfId) throw duplicatedEmail(email);
  }
}

export interface NewUser {
  companyId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: Profile;
  super?: boolean;
  queueIds?: number[];
  whatsappId?: number | null;
  farewellMessage?: string;
}

/**
 * Creates a user; `limit` (the plan's `users`, 0 for none) is checked in the same step as
 * the insert so two concurrent creations cannot both pass it. The refusal carries `limit`
 * so the users screen can name it in its toast.
 */
export function createUser(system: ActorSystem, input: NewUser, limit = 0): Promise<User> {
  return users.in(system, PLATFORM).transact((view) => {
    assertEmailFree(view.records, input.email);
    if (limit > 0) {
      let count = 0;
      for (const u of view.records.values()) if (u.companyId === input.companyId) count++;
      if (count >= limit) {
        throw new AppError("ERR_PLAN_LIMIT", {
          status: 403,
          message: `The plan allows ${limit} users; company ${input.companyId} has ${count}`,
          extra: { limit },
        });
      }
    }
    const user: User = {
      id: view.nextId(),
      companyId: input.companyId,
      name: input.name,
      email: input.email,
      passwordHash: input.passwordHash,
      profile: input.profile,
      super: input.super ?? false,
      queueIds: input.queueIds ?? [],
      whatsappId: input.whatsappId ?? null,
      farewellMessage: input.farewellMessage ?? "",
      tokenVersion: 0,
      online: false,
      createdAt: view.now,
      updatedAt: view.now,
    };
    return { put: [user], reply: user };
  });
}

/** The 409 of a company name already in use (names are unique, case-insensitively). */
export function companyNameTaken(name: string): AppError {
  return new AppError("ERR_CONFLICT", {
    status: 409,
    message: `A company named ${name} already exists`,
    fields: {
      name: "Não foi possível realizar a operação. Verifique se já existe uma empresa com o mesmo nome ou se os campos foram preenchidos corretamente",
    },
  });
}

export type NewCompany = Partial<Omit<Company, "id" | "createdAt" | "updatedAt">> & {
  name: string;
};

/** Creates a company with the spec's defaults (company-level opening hours included). */
export function createCompany(system: ActorSystem, input: NewCompany): Promise<Company> {
  return companies.in(system, PLATFORM).transact((view) => {
    const name = input.name.trim();
    for (const c of view.records.values()) {
      if (c.name.toLowerCase() === name.toLowerCase()) {
        throw companyNameTaken(name);
      }
    }
    const company: Company = {
      namecomplete: "",
      email: "",
      phone: "",
      pais: "BR",
      indicator: "",
      planId: null,
      status: true,
      isTest: false,
      dueDate: null,
      recurrence: "MENSAL",
      schedules: DEFAULT_SCHEDULES,
      lunchHour: { startTime: "12:00", endTime: "13:00" },
      ...NO_BILLING,
      ...input,
      name,
      id: view.nextId(),
      createdAt: view.now,
      updatedAt: view.now,
    };
    return { put: [company], reply: company };
  });
}

/** Creates a plan; its name must be free (domain/plan.ts assertPlanNameFree, checked inside the actor so two saves cannot race). */
export function createPlan(
  system: ActorSystem,
  input: Omit<Plan, "id" | "createdAt" | "updatedAt">,
): Promise<Plan> {
  return plans.in(system, PLATFORM).create(
    (id, now) => ({ ...input, name: input.name.trim(), id, createdAt: now, updatedAt: now }),
    (records, next) => assertPlanNameFree(records.values(), next.name, next.id),
  );
}
