/**
 * SMTP sending through nodemailer: one short-lived transport per message (recovery mail is
 * rare, and settings may change between two sends). Timeouts keep a dead server from holding
 * the request for minutes.
 */
import type { Mail } from "./mod.ts";

/** Where and how to connect. `secure` is TLS from the start (port 465); otherwise STARTTLS when offered. */
export interface SmtpOptions {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
}

const TIMEOUT_MS = 15_000;

/** Sends `mail` from `from` through the SMTP server of `options`. */
export async function sendWithSmtp(options: SmtpOptions, from: string, mail: Mail): Promise<void> {
  // Imported on the first mail, not at start: nodemailer's modules took 120–270 ms of every
  // start (issue #23 §3's cold start).
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: options.host,
    port: options.port,
    secure: options.secure,
    auth: options.user ? { user: options.user, pass: options.pass ?? "" } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  } finally {
    transport.close();
  }
}
