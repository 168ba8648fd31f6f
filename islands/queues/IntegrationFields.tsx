/**
 * The Integrations tab's bot fields (spec 001 §2.15, §7): for Typebot, a workspace select fed
 * by GET /typebot/listworkspaces and a bot select fed by /typebot/listtypebots of that
 * workspace; for n8n, a workflow select fed by /n8n/listworkFlow that also fills the URL with
 * the workflow's webhook (still editable). A value saved before and missing from a list stays
 * selectable; when a list cannot load, the reason shows and the id is typed by hand.
 */
import { t } from "../lib/i18n.ts";
import { type Choice, type SchemaForm, SelectField, TextField } from "../ui/form.tsx";
import type { QueueValues } from "./QueueDialog.tsx";
import { useIntegrationList } from "./use_integration_list.ts";

interface Named {
  id: string;
  name: string;
}

interface Workflow extends Named {
  active: boolean;
  webhooks: string[];
}

/** The choices of a select: "choose…", the list, and the saved value when the list lacks it. */
function choices(items: readonly Named[], current: string, label: (item: Named) => string = (i) => i.name): Choice<string>[] {
  const list = items.map((item) => ({ value: item.id, label: label(item) }));
  if (current && !items.some((i) => i.id === current)) list.unshift({ value: current, label: current });
  return [{ value: "", label: t("queues.choose") }, ...list];
}

/** Typebot's workspace and bot. */
function TypebotFields({ form }: { form: SchemaForm<QueueValues> }) {
  const { workspaceTypebot, typebotId } = form.values;
  const workspaces = useIntegrationList<Named>("/typebot/listworkspaces", "workspaces");
  const bots = useIntegrationList<Named & { published: boolean }>(
    workspaceTypebot ? `/typebot/listtypebots?workspaceId=${encodeURIComponent(workspaceTypebot)}` : null,
    "typebots",
  );
  if (workspaces.error) {
    return (
      <>
        <TextField form={form} name="workspaceTypebot" label={t("queues.workspaceTypebot")} hint={workspaces.error} />
        <TextField form={form} name="typebotId" label={t("queues.typebotId")} />
      </>
    );
  }
  const pickWorkspace: SchemaForm<QueueValues> = {
    ...form,
    set: (name, value) => {
      form.set(name, value);
      if (name === "workspaceTypebot" && value !== workspaceTypebot) form.set("typebotId", "");
    },
  };
  const unpublished = (item: Named) => (item as { published?: boolean }).published === false ? t("queues.unpublished", { name: item.name }) : item.name;
  return (
    <>
      <SelectField
        form={pickWorkspace}
        name="workspaceTypebot"
        label={t("queues.workspaceTypebot")}
        options={choices(workspaces.items, workspaceTypebot)}
        hint={workspaces.loading ? t("queues.listLoading") : undefined}
      />
      {bots.error
        ? <TextField form={form} name="typebotId" label={t("queues.typebot")} hint={bots.error} />
        : (
          <SelectField
            form={form}
            name="typebotId"
            label={t("queues.typebot")}
            options={choices(bots.items, typebotId, unpublished)}
            disabled={!workspaceTypebot}
            hint={bots.loading ? t("queues.listLoading") : undefined}
          />
        )}
    </>
  );
}

/** n8n's workflow and webhook URL. */
function N8nFields({ form }: { form: SchemaForm<QueueValues> }) {
  const workflows = useIntegrationList<Workflow>("/n8n/listworkFlow", "workflows");
  const pickWorkflow: SchemaForm<QueueValues> = {
    ...form,
    set: (name, value) => {
      form.set(name, value);
      const chosen = workflows.items.find((w) => w.id === value);
      if (name === "n8nId" && chosen?.webhooks[0]) form.set("n8n", chosen.webhooks[0]);
    },
  };
  const inactive = (item: Named) => (item as Workflow).active === false ? t("queues.inactive", { name: item.name }) : item.name;
  return (
    <>
      {workflows.error
        ? <TextField form={form} name="n8nId" label={t("queues.n8nId")} hint={workflows.error} />
        : (
          <SelectField
            form={pickWorkflow}
            name="n8nId"
            label={t("queues.n8nWorkflow")}
            options={choices(workflows.items, form.values.n8nId, inactive)}
            hint={workflows.loading ? t("queues.listLoading") : undefined}
          />
        )}
      <TextField form={form} name="n8n" label={t("queues.n8n")} type="url" hint={t("queues.n8nHint")} />
    </>
  );
}

/** The fields of the chosen integration (none for "Nenhuma"). */
export function IntegrationFields({ form }: { form: SchemaForm<QueueValues> }) {
  if (form.values.typeChatbot === "typebot") return <TypebotFields form={form} />;
  if (form.values.typeChatbot === "n8n") return <N8nFields form={form} />;
  return null;
}
