/**
 * The one error type of the domain. Codes are the spec's catalogue (spec 000 §8) plus the
 * few the server needs of its own; the HTTP status is chosen where the error is raised.
 */
export const ErrorCode = [
  "ERR_NO_OTHER_WHATSAPP",
  "ERR_NO_DEF_WAPP_FOUND",
  "ERR_WAPP_NOT_INITIALIZED",
  "ERR_WAPP_CHECK_CONTACT",
  "ERR_WAPP_INVALID_CONTACT",
  "ERR_WAPP_DOWNLOAD_MEDIA",
  "ERR_INVALID_CREDENTIALS",
  "ERR_SENDING_WAPP_MSG",
  "ERR_DELETE_WAPP_MSG",
  "ERR_OTHER_OPEN_TICKET",
  "ERR_SESSION_EXPIRED",
  "ERR_USER_CREATION_DISABLED",
  "ERR_NO_PERMISSION",
  "ERR_DUPLICATED_CONTACT",
  "ERR_NO_SETTING_FOUND",
  "ERR_NO_CONTACT_FOUND",
  "ERR_NO_TICKET_FOUND",
  "ERR_NO_USER_FOUND",
  "ERR_NO_WAPP_FOUND",
  "ERR_CREATING_MESSAGE",
  "ERR_CREATING_TICKET",
  "ERR_FETCH_WAPP_MSG",
  "ERR_QUEUE_COLOR_ALREADY_EXISTS",
  "ERR_WAPP_GREETING_REQUIRED",
  // Codes of our own, for cases the spec's catalogue does not name.
  "ERR_VALIDATION",
  "ERR_NOT_FOUND",
  "ERR_NO_COMPANY_FOUND",
  "ERR_NO_PLAN_FOUND",
  "ERR_NO_INVOICE_FOUND",
  "ERR_NO_QUEUE_FOUND",
  "ERR_NO_TAG_FOUND",
  "ERR_NO_HELP_FOUND",
  "ERR_NO_MESSAGE_FOUND",
  "ERR_DUPLICATED_EMAIL",
  "ERR_PLAN_LIMIT",
  "ERR_PLAN_FEATURE",
  "ERR_SUBSCRIPTION_EXPIRED",
  "ERR_TOO_MANY_ATTEMPTS",
  "ERR_CONFLICT",
  "ERR_INTERNAL",
  // Password recovery (spec 002 §2.15, §8): unknown e-mail, wrong or used token, no mail.
  "ERR_EMAIL_NOT_FOUND",
  "ERR_INVALID_RESET_TOKEN",
  "ERR_EMAIL_NOT_CONFIGURED",
  "ERR_SENDING_EMAIL",
  // WhatsApp Cloud API (issue #22): free text outside the 24-hour customer-service window.
  "ERR_CLOUDAPI_WINDOW_CLOSED",
  // Ratings (spec 002 §2.11, §2.16): an unknown survey, or a survey key that names none.
  "ERR_NO_RATING_FOUND",
  // Bot integrations (issue #17): Typebot or n8n settings missing, or the service failed.
  "ERR_INTEGRATION_NOT_CONFIGURED",
  "ERR_INTEGRATION_FAILED",
  // The store refuses writes (a full disk…): 503, nothing was saved (issue #24).
  "ERR_STORE_UNAVAILABLE",
  // The company is moving between processes (issue #35): 503 with Retry-After, nothing saved.
  "ERR_COMPANY_MOVED",
] as const;
export type ErrorCode = typeof ErrorCode[number];

export interface AppErrorOptions {
  status?: number;
  message?: string;
  /** Field name → message, for validation failures. */
  fields?: Record<string, string>;
  /** Extra keys merged into the JSON error body (e.g. the existing ticket). */
  extra?: Record<string, unknown>;
  cause?: unknown;
}

/** An expected failure with a catalogue code; the HTTP layer turns it into `{ error, message, fields }`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: Record<string, string>;
  readonly extra?: Record<string, unknown>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? code, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? 400;
    this.fields = options.fields;
    this.extra = options.extra;
  }
}

/** Shorthand for the 404 of a record that does not exist (or belongs to another company). */
export function notFound(code: ErrorCode, message: string): AppError {
  return new AppError(code, { status: 404, message });
}

/** Shorthand for the 403 of a permission check. */
export function forbidden(message = "No permission"): AppError {
  return new AppError("ERR_NO_PERMISSION", { status: 403, message });
}

/** For branches the type system proves impossible. */
export function unreachable(x: never): never {
  throw new Error(`Unreachable: ${JSON.stringify(x)}`);
}
