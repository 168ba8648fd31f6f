/**
 * Outgoing e-mail (password recovery). The platform owner configures it in the global
 * settings (spec 001 §2.4 "e-mail sending provider"): SMTP when `smtpHost` is set (sent with
 * nodemailer), else SendGrid's HTTP API when `sendgridapi` holds a key; the sender address is
 * `emailsender`. The settings are read at each send, so a change applies without a restart.
 * The server's own SMTP_* environment (Config.smtp) is the last resort for an operator who
 * keeps mail out of the settings.
 */
import type { Config } from "../config.ts";
import { AppError } from "../../domain/errors.ts";
import { settingOn } from "../../domain/settings.ts";
import { sendWithSendgrid } from "./sendgrid.ts";
import { sendWithSmtp, type SmtpOptions } from "./smtp.ts";

/** One message to one recipient. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends a message (throws AppError ERR_SENDING_EMAIL when the provider refuses it). */
export type Mailer = (mail: Mail) => Promise<void>;

const DEFAULT_SENDER = "no-reply@balcao.local";

/**
 * The mailer the platform's settings describe, or null when no provider is configured.
 * `settings` are the platform company's (global keys, credentials included).
 */
export function mailerFromSettings(settings: Record<string, string>, config: Pick<Config, "smtp">): Mailer | null {
  const from = settings.emailsender?.trim() || config.smtp?.from || DEFAULT_SENDER;
  if (settings.smtpHost?.trim()) {
    const port = Number(settings.smtpPort) || 587;
    return smtpMailer({
      host: settings.smtpHost.trim(),
      port,
      secure: settingOn(settings.smtpSecure),
      user: settings.smtpUser?.trim() || undefined,
      pass: settings.smtpPassword || undefined,
    }, from);
  }
  const key = settings.sendgridapi?.trim();
  if (key) return (mail) => failsAsAppError(sendWithSendgrid(key, from, mail));
  if (config.smtp) {
    const { host, port, user, pass } = config.smtp;
    return smtpMailer({ host, port, secure: port === 465, user, pass }, from);
  }
  return null;
}

function smtpMailer(options: SmtpOptions, from: string): Mailer {
  return (mail) => failsAsAppError(sendWithSmtp(options, from, mail));
}

async function failsAsAppError(sending: Promise<void>): Promise<void> {
  try {
    await sending;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("ERR_SENDING_EMAIL", {
      status: 502,
      message: `The e-mail could not be sent: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}
