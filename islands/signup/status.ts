/** What the public sign-up endpoints answer (server/api/signup.ts, server/api/plans.ts). */
import { get } from "../lib/api.ts";

/** GET /companies/cadastro: sign-up open (allowregister), linked from login (viewregister), trial days. */
export interface SignupStatus {
  open: boolean;
  linked: boolean;
  trialDays: number;
}

/** A plan as GET /plans/register lists it (the fields the form shows). */
export interface RegisterPlan {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
}

/** Reads the sign-up switches. */
export function fetchSignupStatus(): Promise<SignupStatus> {
  return get<SignupStatus>("/companies/cadastro");
}

/** Reads the plans a new company may choose. */
export function fetchRegisterPlans(): Promise<RegisterPlan[]> {
  return get<RegisterPlan[]>("/plans/register");
}
