/**
 * Company sign-up: a company and its first admin user in one call, shared by the super
 * user's form (POST /companies/internal) and the public sign-up (POST /companies/cadastro).
 * Companies and users live in two actors, so this is two steps: the e-mail is checked
 * first (no company is created for a taken e-mail), and if the user insert still fails
 * (an e-mail taken in between, a plan limit) the company is removed again.
 */
import type { ActorSystem } from "../_runtime/system.ts";
import type { Company } from "../../domain/company.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import type { User } from "../../domain/user.ts";
import { companies, PLATFORM } from "./collections.ts";
import { createCompany, createUser, type NewCompany } from "./commands.ts";
import { findUserByEmail, getPlan } from "./lookup.ts";
import { setSetting } from "./settings_commands.ts";

export interface NewSignup {
  company: NewCompany & { planId: number };
  admin: { name: string; email: string; passwordHash: string };
  /** Stored as the company's `campaignsEnabled` setting when given. */
  campaignsEnabled?: boolean;
}

/** Creates the company and its admin user; replies with both. */
export async function signupCompany(
  system: ActorSystem,
  input: NewSignup,
  /** Called once the company exists, before anything of its own is written (a process of several takes it: server/cluster/). */
  created: (companyId: number) => Promise<void> = () => Promise.resolve(),
): Promise<{ company: Company; user: User }> {
  const plan = await getPlan(system, input.company.planId);
  if (!plan) {
    throw notFound("ERR_NO_PLAN_FOUND", `Plan ${input.company.planId} not found`);
  }
  if (await findUserByEmail(system, input.admin.email)) {
    throw new AppError("ERR_DUPLICATED_EMAIL", {
      status: 409,
      message: "An user with this email already exists.",
      fields: { email: `E-mail ${input.admin.email} is already in use` },
    });
  }
  const company = await createCompany(system, input.company);
  let user: User;
  try {
    user = await createUser(system, {
      companyId: company.id,
      name: input.admin.name,
      email: input.admin.email,
      passwordHash: input.admin.passwordHash,
      profile: "admin",
    }, plan.users);
  } catch (error) {
    await companies.in(system, PLATFORM).remove(company.id, () => error as Error);
    throw error;
  }
  await created(company.id);
  if (input.campaignsEnabled !== undefined) {
    await setSetting(system, company.id, "campaignsEnabled", String(input.campaignsEnabled));
  }
  return { company, user };
}
