/**
 * The keyword tab's rule as the /settings route and islands import it: the pure rule lives in
 * domain/crm_webhook.ts (a webhook URL with an `api` path segment is a CRM API), so the
 * server and the tests judge a webhook the same way.
 */
export { crmWebhookIn, isCrmWebhook } from "../../domain/crm_webhook.ts";
