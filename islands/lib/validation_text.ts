/**
 * The schemas' messages in the reader's language (issue #41). The zod schemas in domain/ keep
 * the spec's texts ('Required', 'Too Short!', 'Too Long!', 'Invalid email': the original
 * client's Yup messages, also the API's `fields`), which read as English leaking into the
 * Portuguese screens; a form shows them through `t()` instead. Any other message (already
 * Portuguese, such as 'Obrigatório' or 'Número inválido para o WhatsApp') is shown as is.
 */
import { MSG } from "../../domain/text.ts";
import { type LocaleKey, t } from "./i18n.ts";

const KEYS: Readonly<Record<string, LocaleKey>> = {
  [MSG.required]: "validation.required",
  [MSG.tooShort]: "validation.tooShort",
  [MSG.tooLong]: "validation.tooLong",
  [MSG.invalidEmail]: "validation.email",
};

/** `message` as the reader should see it. */
export function shownMessage(message: string): string;
export function shownMessage(message: string | undefined): string | undefined;
export function shownMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const key = KEYS[message];
  return key ? t(key) : message;
}
