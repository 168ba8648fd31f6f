/**
 * A real SMTP server on a random local port for e-mail tests (smtp-server, no TLS, any or no
 * login), with each received message parsed by mailparser. `next()` waits for the next
 * message; `useFor(client)` points the platform's SMTP settings at it as a super user.
 */
import { SMTPServer } from "smtp-server";
import { type ParsedMail, simpleParser } from "mailparser";
import type { AddressInfo } from "node:net";
import type { Client } from "./server.ts";

/** The running mailbox. */
export interface Mailbox {
  port: number;
  /** Every message received so far. */
  received: ParsedMail[];
  /** The next message not yet taken by `next` (waits up to `timeoutMs`). */
  next(timeoutMs?: number): Promise<ParsedMail>;
  /** Sets smtpHost/smtpPort/smtpSecure/emailsender as `superUser` so the platform mails here. */
  useFor(superUser: Client, sender?: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts a mailbox. */
export async function startMailbox(): Promise<Mailbox> {
  const received: ParsedMail[] = [];
  let taken = 0;
  let wake: (() => void) | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (_auth, _session, callback) => callback(null, { user: "test" }),
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        received.push(mail);
        wake?.();
        callback();
      }, (error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length <= taken) {
        if (Date.now() > deadline) throw new Error(`No e-mail arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      return received[taken++];
    },
    async useFor(superUser, sender = "suporte@balcao.local") {
      for (const [key, value] of [["smtpHost", "127.0.0.1"], ["smtpPort", String(port)], ["smtpSecure", "disabled"], ["emailsender", sender]]) {
        const result = await superUser.put(`/settings/${key}`, { value });
        if (result.status !== 200) throw new Error(`PUT /settings/${key}: ${result.status} ${JSON.stringify(result.body)}`);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The recovery code in a recovery mail (XXXX-XXXX). */
export function resetCodeIn(mail: ParsedMail): string {
  const match = (mail.text ?? "").match(/\b([A-Z0-9]{4}-[A-Z0-9]{4})\b/);
  if (!match) throw new Error(`No code in the mail: ${mail.text}`);
  return match[1];
}
