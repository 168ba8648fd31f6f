/**
 * Company sign-up. `signupFromInput` is the one path for the super user's form
 * (POST /companies/internal) and the public page (POST /companies/cadastro, mounted here):
 * the company gets a trial of `trial` days (platform setting, default 3), recurrence MENSAL,
 * and an admin user. The public path is open only while the platform setting
 * `allowregister` is on, and is limited per client address; `viewregister` (with it) puts
 * the sign-up link on the login page.
 */
import { Hono } from "hono";
import { publicUser } from "../../actors/platform/collections.ts";
import { platformSettings } from "../../actors/platform/lookup.ts";
import { signupCompany } from "../../actors/platform/signup.ts";
import { syncInvoices } from "../../actors/invoices/mod.ts";
import { SignupInput } from "../../domain/company.ts";
import { AppError } from "../../domain/errors.ts";
import { settingOn } from "../../domain/settings.ts";
import { trialDays, trialDueDate } from "../../domain/subscription.ts";
import type { AppDeps, AppEnv } from "../deps.ts";
import { clientAddress } from "../auth/client_address.ts";
import { hashPassword } from "../auth/passwords.ts";
import { parseBody } from "../http/validate.ts";
import { companyDetail } from "./company_view.ts";
import { adopter } from "../cluster/adopt.ts";

/** Creates the company (trial due date) and its admin user; replies with both views. */
export async function signupFromInput(deps: AppDeps, input: SignupInput) {
  const settings = await platformSettings(deps.system);
  const now = Date.now();
  const { company, user } = await signupCompany(deps.system, {
    company: {
      name: input.name,
      namecomplete: input.namecomplete,
      email: input.email,
      phone: input.phone,
      pais: input.pais,
      indicator: input.indicator,
      planId: input.planId,
      status: true,
      recurrence: "MENSAL",
      dueDate: trialDueDate(now, trialDays(settings.trial)),
    },
    admin: {
      name: input.namecomplete,
      email: input.email,
      passwordHash: await hashPassword(input.password, deps.config.passwordHash),
    },
    campaignsEnabled: input.campaignsEnabled ?? true,
  }, adopter(deps));
  // The trial ends within the invoice lead time: its first invoice is issued now (#21).
  await syncInvoices(deps.system, company.id);
  return { company: await companyDetail(deps.system, company, user), user: publicUser(user) };
}

/** GET /companies/cadastro body. */
export interface SignupStatus {
  open: boolean;
  linked: boolean;
  trialDays: number;
}

/** The sign-up switches of the platform's settings. */
export function signupStatus(settings: Record<string, string>): SignupStatus {
  return {
    open: settingOn(settings.allowregister),
    linked: settingOn(settings.viewregister) && settingOn(settings.allowregister),
    trialDays: trialDays(settings.trial),
  };
}

/** The public sign-up, mounted at `/companies` (path `/cadastro`, no authentication). */
export function signupRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  // What the /signup page needs before showing its form (spec 001 §3 global keys): whether
  // sign-up is open (allowregister), whether the login page links to it (viewregister), and
  // the trial length. Public, like GET /plans/register.
  app.get("/cadastro", async (c) => {
    const settings = await platformSettings(c.get("deps").system);
    return c.json(signupStatus(settings));
  });

  app.post("/cadastro", async (c) => {
    const deps = c.get("deps");
    const settings = await platformSettings(deps.system);
    if (!settingOn(settings.allowregister)) {
      throw new AppError("ERR_USER_CREATION_DISABLED", {
        status: 403,
        message: "Sign-up is disabled on this platform",
      });
    }
    // Every attempt counts (the login throttle's window and limit), so one address cannot
    // create companies in bulk.
    const key = `signup:${clientAddress(c)}`;
    const now = Date.now();
    const wait = await deps.throttle.retryAfter(key, now);
    if (wait > 0) {
      c.header("Retry-After", String(Math.ceil(wait / 1000)));
      throw new AppError("ERR_TOO_MANY_ATTEMPTS", {
        status: 429,
        message: "Too many sign-ups from this address, try again later",
      });
    }
    await deps.throttle.fail(key, now);
    const input = await parseBody(c, SignupInput);
    return c.json(await signupFromInput(deps, input), 201);
  });

  return app;
}
