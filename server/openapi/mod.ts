/**
 * The OpenAPI document of the product (issue #22): every operation of every area, built once
 * per process (the operations and schemas are code, so the document cannot change while it
 * runs). An area adds its endpoints to its `ops_*.ts` list, or a new list here.
 */
import { buildDocument } from "./document.ts";
import type { Operation } from "./operation.ts";
import { ACCESS_OPERATIONS } from "./ops_access.ts";
import { CHANNEL_OPERATIONS } from "./ops_channels.ts";
import { DESK_OPERATIONS } from "./ops_desk.ts";
import { REPORT_OPERATIONS } from "./ops_reports.ts";
import { WEBHOOK_OPERATIONS } from "./ops_webhooks.ts";
import { CHAT_OPERATIONS } from "./ops_chats.ts";
import { AI_OPERATIONS } from "./ops_ai.ts";
import { CAMPAIGN_OPERATIONS } from "./ops_campaigns.ts";
import { CONTACT_LIST_OPERATIONS } from "./ops_campaigns_lists.ts";
import { BILLING_OPERATIONS, PAYMENT_OPERATIONS } from "./ops_billing.ts";

/** Every documented operation. */
export const OPERATIONS: readonly Operation[] = [
  ...ACCESS_OPERATIONS,
  ...DESK_OPERATIONS,
  ...CHANNEL_OPERATIONS,
  ...REPORT_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...CHAT_OPERATIONS,
  ...AI_OPERATIONS,
  ...CAMPAIGN_OPERATIONS,
  ...CONTACT_LIST_OPERATIONS,
  ...BILLING_OPERATIONS,
  ...PAYMENT_OPERATIONS,
];

let built: ReturnType<typeof buildDocument> | undefined;

/** The document (built on first use; a pure function of the code). */
export function openApiDocument(): ReturnType<typeof buildDocument> {
  built ??= buildDocument(OPERATIONS);
  return built;
}
