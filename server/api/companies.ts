/**
 * Companies (spec 001 §2.6, §2.7, §7). Super users manage every company. A company's own
 * users read its plan (`/listPlan/{id}`, for the menu's plan flags), its admins read it and
 * save its opening hours (the settings page's Horários tab). Any other company does not
 * exist for them (404).
 */
import { adopter } from "../cluster/adopt.ts";
import { type Context, Hono } from "hono";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import { companies, PLATFORM } from "../../actors/platform/collections.ts";
import { companyNameTaken, createCompany } from "../../actors/platform/commands.ts";
import { getCompany, getPlan, platformCompanyId } from "../../actors/platform/lookup.ts";
import { setSetting } from "../../actors/platform/settings_commands.ts";
import { syncInvoices } from "../../actors/invoices/mod.ts";
import { CompanyInput, SignupInput } from "../../domain/company.ts";
import { CompanyHoursInput } from "../../domain/company_hours.ts";
import { forbidden, notFound } from "../../domain/errors.ts";
import { matchesSearch, paginate, SearchPage } from "../../domain/paging.ts";
import { definedOnly } from "../../domain/patch.ts";
import { can, type Principal } from "../../domain/permissions.ts";
import type { AppEnv } from "../deps.ts";
import { requireAuth, requirePermission } from "../auth/middleware.ts";
import { idParam, parseBody, parseQuery } from "../http/validate.ts";
import { companyDetail, companyViewer } from "./company_view.ts";
import { deleteCompany } from "../usecases/company_delete.ts";
import { signupFromInput } from "./signup.ts";
import { recordAudit } from "../audit/record.ts";
import { changedFields } from "../../domain/audit.ts";

const noCompany = (id: number | string | undefined) =>
  notFound("ERR_NO_COMPANY_FOUND", `Company ${id} not found`);

/** Company `id` if `who` may reach it (its own, or any for super), else the 404. */
async function reachableCompany(system: ActorSystem, who: Principal, id: number) {
  const company = await getCompany(system, id);
  if (!company || (!who.super && company.id !== who.companyId)) throw noCompany(id);
  return company;
}

/** Throws the 404 of a plan id that does not exist (null and undefined pass). */
async function assertPlan(system: ActorSystem, planId: number | null | undefined) {
  if (planId && !(await getPlan(system, planId))) {
    throw notFound("ERR_NO_PLAN_FOUND", `Plan ${planId} not found`);
  }
}

/** The company routes, mounted at `/companies` (and `/companies/`). */
export function companyRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth();
  // Reading one's own company and plan stays open to a billing-only token: the invoices and
  // subscription screens show the due date and plan to renew.
  const billing = requireAuth({ billing: true });
  const superOnly = [auth, requirePermission("super:companies")] as const;
  const idOf = (c: Context, name = "id") => idParam(c, name, () => noCompany(c.req.param(name)));

  app.get("/", ...superOnly, async (c) => {
    const { system } = c.get("deps");
    const query = parseQuery(c, SearchPage);
    const all = (await companies.in(system, PLATFORM).list())
      .filter((co) => matchesSearch(query.searchParam, co.name, co.email, co.namecomplete));
    const page = paginate(all, query.pageNumber);
    const view = await companyViewer(system);
    // Several processes (#35): which one runs each company (null for a process alone).
    const leases = c.get("deps").cluster?.leaseView;
    const rows = page.rows.map((co) => ({ ...view(co), node: leases?.get(co.id)?.node ?? null }));
    return c.json({ companies: rows, count: page.count, hasMore: page.hasMore });
  });

  app.get("/list", ...superOnly, async (c) => {
    const { system } = c.get("deps");
    const view = await companyViewer(system);
    return c.json((await companies.in(system, PLATFORM).list()).map(view));
  });

  app.get("/listPlan/:companyId", billing, async (c) => {
    const { system } = c.get("deps");
    const company = await reachableCompany(
      system,
      c.get("principal"),
      idOf(c, "companyId"),
    );
    return c.json((await companyViewer(system))(company));
  });

  app.get("/:id", billing, async (c) => {
    const { system } = c.get("deps");
    const who = c.get("principal");
    const company = await reachableCompany(system, who, idOf(c));
    if (!who.super && !can(who, "company:viewOwn")) throw forbidden();
    return c.json(await companyDetail(system, company, who));
  });

  app.post("/", ...superOnly, async (c) => {
    const { system } = c.get("deps");
    const { campaignsEnabled, ...input } = await parseBody(c, CompanyInput);
    await assertPlan(system, input.planId);
    const company = await createCompany(system, {
      ...definedOnly(input),
      name: input.name,
      planId: input.planId ?? null,
    });
    await adopter(c.get("deps"))(company.id);
    if (campaignsEnabled !== undefined) {
      await setSetting(system, company.id, "campaignsEnabled", String(campaignsEnabled));
    }
    // Its invoice timer (#21): armed for the due date, or the invoice issued now if it is near.
    await syncInvoices(system, company.id);
    // In the new company's log (its admins see who created it) and the super user's own.
    const created = { kind: "company", id: company.id, name: company.name } as const;
    await recordAudit(c.get("deps"), c.get("principal"), "company.create", created, {}, { companyId: company.id });
    if (c.get("principal").companyId !== company.id) await recordAudit(c.get("deps"), c.get("principal"), "company.create", created);
    return c.json(await companyDetail(system, company, c.get("principal")), 201);
  });

  app.post("/internal", ...superOnly, async (c) => {
    const input = await parseBody(c, SignupInput);
    return c.json(await signupFromInput(c.get("deps"), input), 201);
  });

  app.put("/:id/schedules", auth, async (c) => {
    const { system } = c.get("deps");
    const who = c.get("principal");
    const company = await reachableCompany(system, who, idOf(c));
    if (!can(who, "settings:manage")) throw forbidden();
    const input = await parseBody(c, CompanyHoursInput);
    const updated = await companies.in(system, PLATFORM).update(
      company.id,
      (old, now) => ({
        ...old,
        schedules: input.schedules,
        lunchHour: input.lunchHour === undefined ? old.lunchHour : input.lunchHour,
        updatedAt: now,
      }),
      () => noCompany(company.id),
    );
    return c.json(await companyDetail(system, updated, c.get("principal")));
  });

  app.put("/:id", ...superOnly, async (c) => {
    const { system } = c.get("deps");
    const id = idOf(c);
    const { campaignsEnabled, ...input } = await parseBody(c, CompanyInput);
    await assertPlan(system, input.planId);
    const before = await getCompany(system, id);
    const updated = await companies.in(system, PLATFORM).update(
      id,
      (old, now) => ({ ...old, ...definedOnly(input), updatedAt: now }),
      () => noCompany(id),
      (records, next) => {
        for (const co of records.values()) {
          if (co.id !== id && co.name.toLowerCase() === next.name.toLowerCase()) {
            throw companyNameTaken(next.name);
          }
        }
      },
    );
    if (campaignsEnabled !== undefined) {
      await setSetting(system, id, "campaignsEnabled", String(campaignsEnabled));
    }
    // A new due date or plan re-arms the invoice timer (#21).
    await syncInvoices(system, id);
    await recordAudit(c.get("deps"), c.get("principal"), "company.update", { kind: "company", id, name: updated.name }, {
      fields: changedFields(input, before),
      ...(campaignsEnabled === undefined ? {} : { campaignsEnabled }),
    }, { companyId: id });
    return c.json(await companyDetail(system, updated, c.get("principal")));
  });

  app.delete("/:id", ...superOnly, async (c) => {
    const { system } = c.get("deps");
    const id = idOf(c);
    if (!(await getCompany(system, id))) throw noCompany(id);
    if (id === (await platformCompanyId(system))) {
      throw forbidden("The platform company cannot be deleted");
    }
    const gone = await getCompany(system, id);
    await deleteCompany(c.get("deps"), id);
    // In the super user's log: the deleted company's own log goes with it.
    await recordAudit(c.get("deps"), c.get("principal"), "company.delete", { kind: "company", id, name: gone?.name });
    return c.json({ message: "Company deleted" });
  });

  return app;
}
