/**
 * The WhatsApp Cloud API part of the connection dialog (issue #22), shown when the provider is
 * `cloudapi`: the Graph ids of the number and of its business account, the access token and
 * app secret (write-only: the server never returns them, a blank keeps the stored ones), the
 * webhook's verify token, and — for a saved connection — the callback URL to give Meta.
 */
import { t } from "../lib/i18n.ts";
import { type SchemaForm, TextField } from "../ui/form.tsx";

/** The Cloud API fields of WhatsappInput. */
export const CLOUD_FIELDS = ["cloudPhoneNumberId", "cloudWabaId", "cloudAccessToken", "cloudAppSecret", "cloudVerifyToken"] as const;

/** Props of CloudApiFields: the dialog's form and the saved connection's id, if any. */
export interface CloudApiFieldsProps<V extends Record<(typeof CLOUD_FIELDS)[number], unknown>> {
  form: SchemaForm<V>;
  connectionId: number | null;
}

/** The Cloud API fields, full width under the provider. */
export function CloudApiFields<V extends Record<(typeof CLOUD_FIELDS)[number], unknown>>({ form, connectionId }: CloudApiFieldsProps<V>) {
  const callback = connectionId === null || typeof location === "undefined" ? null : `${location.origin}/webhooks/cloudapi/${connectionId}`;
  return (
    <fieldset className="connection-wide connection-cloud" data-testid="cloudapi-fields">
      <legend>{t("connections.cloud.title")}</legend>
      <TextField form={form} name="cloudPhoneNumberId" label={t("connections.cloudPhoneNumberId")} />
      <TextField form={form} name="cloudWabaId" label={t("connections.cloudWabaId")} />
      <TextField form={form} name="cloudAccessToken" label={t("connections.cloudAccessToken")} type="password" hint={t("connections.cloud.secretHint")} />
      <TextField form={form} name="cloudAppSecret" label={t("connections.cloudAppSecret")} type="password" hint={t("connections.cloud.secretHint")} />
      <TextField form={form} name="cloudVerifyToken" label={t("connections.cloudVerifyToken")} hint={t("connections.cloud.verifyHint")} />
      {callback && (
        <div className="field">
          <span>{t("connections.cloud.callback")}</span>
          <code className="connection-callback" data-testid="cloudapi-callback">{callback}</code>
        </div>
      )}
    </fieldset>
  );
}
