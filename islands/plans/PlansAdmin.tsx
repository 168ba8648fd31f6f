/**
 * The plans admin of spec 001 §2.8 (super): name, users, connections, queues, value and the
 * ten feature flags as Sim/Não selects, above a table of every plan with its price in BRL
 * (pt-BR, 2 decimals, §9). The selects show domain/plan.ts flagChoice: a flag reads 'Sim'
 * unless stored false, except useInternal, whose display is inverted (§3: 'Sim' stores
 * false); flagFromChoice turns the choice back into the stored value. Plans have no live
 * channel: the table is the super user's own changes plus a reload on opening the tab.
 */
import { useMemo } from "react";
import { flagChoice, flagFromChoice, type Plan, PLAN_FLAGS, type PlanFlag } from "../../domain/plan.ts";
import { get } from "../lib/api.ts";
import { t } from "../lib/i18n.ts";
import type { ColumnDef } from "../ui/DataTable.tsx";
import { type Choice, SelectField, TextField } from "../ui/form.tsx";
import { usePagedList } from "../ui/use_paged_list.ts";
import { RecordAdminFrame, useRecordAdmin } from "./record_admin.tsx";

/** A plan as GET /plans/all answers it. */
export type PlanRow = Omit<Plan, "createdAt" | "updatedAt">;

/** The form's values: numbers as typed, each flag as its Sim (true) / Não (false) choice. */
export type PlanValues = { name: string; users: string; connections: string; queues: string; value: string } & Record<PlanFlag, boolean>;

const BRL = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL", minimumFractionDigits: 2 });

/** A plan's price as the table shows it (spec 001 §9: BRL, pt-BR, 2 decimals), e.g. R$ 1.234,50. */
export function formatPrice(value: number): string {
  return BRL.format(value);
}

/** The empty form: no name, zero limits, every select on 'Sim'. */
export const BLANK_PLAN: PlanValues = {
  name: "",
  users: "0",
  connections: "0",
  queues: "0",
  value: "0",
  ...Object.fromEntries(PLAN_FLAGS.map((f) => [f, true])) as Record<PlanFlag, boolean>,
};

/** A stored plan as form values. */
export function planToValues(plan: PlanRow): PlanValues {
  return {
    name: plan.name,
    users: String(plan.users),
    connections: String(plan.connections),
    queues: String(plan.queues),
    value: String(plan.value),
    ...Object.fromEntries(PLAN_FLAGS.map((f) => [f, flagChoice(f, plan[f])])) as Record<PlanFlag, boolean>,
  };
}

/** The form values as the POST/PUT /plans body (a decimal comma is read as a point). */
export function planBody(values: PlanValues) {
  return {
    name: values.name.trim(),
    users: Number(values.users) || 0,
    connections: Number(values.connections) || 0,
    queues: Number(values.queues) || 0,
    value: Number(String(values.value).replace(",", ".")) || 0,
    ...Object.fromEntries(PLAN_FLAGS.map((f) => [f, flagFromChoice(f, values[f])])),
  };
}

/** The plans form and table; `initial` is GET /plans/all as read on the server, or null. */
export function PlansAdmin({ initial }: { initial: PlanRow[] | null }) {
  const list = usePagedList<PlanRow>({
    initial: initial && { rows: initial, hasMore: false },
    fetchPage: async () => ({ rows: await get<PlanRow[]>("/plans/all"), hasMore: false }),
    rowId: (p) => p.id,
  });
  const admin = useRecordAdmin<PlanRow, PlanValues>({
    schema: "PlanInput",
    path: "/plans",
    list,
    blank: BLANK_PLAN,
    toValues: planToValues,
    toBody: planBody,
    saveError: t("settingsPlans.saveError"),
  });
  const yesNo = useMemo<Choice<boolean>[]>(() => [{ value: true, label: t("recordAdmin.yes") }, { value: false, label: t("recordAdmin.no") }], []);
  const columns = useMemo<ColumnDef<PlanRow, unknown>[]>(() => [
    { accessorKey: "name", header: t("settingsPlans.name") },
    { accessorKey: "users", header: t("settingsPlans.users"), meta: { className: "col-center" } },
    { accessorKey: "connections", header: t("settingsPlans.connections"), meta: { className: "col-center" } },
    { accessorKey: "queues", header: t("settingsPlans.queues"), meta: { className: "col-center" } },
    { accessorKey: "value", header: t("settingsPlans.value"), meta: { className: "col-num" }, cell: ({ row }) => formatPrice(row.original.value) },
    ...PLAN_FLAGS.map((flag): ColumnDef<PlanRow, unknown> => ({
      id: flag,
      accessorFn: (p) => flagChoice(flag, p[flag]),
      header: t(`settingsPlans.${flag}`),
      meta: { className: "col-center" },
      cell: ({ getValue }) => t(getValue() ? "recordAdmin.yes" : "recordAdmin.no"),
    })),
  ], []);
  const f = admin.form;

  return (
    <RecordAdminFrame admin={admin} list={list} columns={columns} nameOf={(p) => p.name} label={t("settingsPlans.title")} emptyText={t("settingsPlans.empty")} testId="plan">
      <div className="field-wide">
        <TextField form={f} name="name" label={t("settingsPlans.name")} />
      </div>
      <TextField form={f} name="users" label={t("settingsPlans.users")} type="number" />
      <TextField form={f} name="connections" label={t("settingsPlans.connections")} type="number" />
      <TextField form={f} name="queues" label={t("settingsPlans.queues")} type="number" />
      <TextField form={f} name="value" label={t("settingsPlans.value")} type="number" />
      {PLAN_FLAGS.map((flag) => (
        <SelectField
          key={flag}
          form={f}
          name={flag}
          label={t(`settingsPlans.${flag}`)}
          options={yesNo}
          hint={flag === "useInternal" ? t("settingsPlans.internalHint") : undefined}
        />
      ))}
    </RecordAdminFrame>
  );
}
