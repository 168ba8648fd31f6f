/**
 * What the conversation engine says to customers on its own (issue #17). Customers read
 * WhatsApp, not the app, so these are the company's language: Portuguese, the product's
 * default (spec 000 §9); the configurable texts (greetings, out-of-hours, farewell) come from
 * the connection, the queue and the options, and take precedence wherever one is set.
 */

/** The bot's fixed texts. */
export const BOT_TEXTS = {
  /** The menu line that goes up one level. */
  back: "Voltar",
  /** The button that opens a list menu (20 characters at most). */
  listButton: "Ver opções",
  /** The title of the list's one section. */
  listSection: "Escolha uma opção",
  /** The header of a queue's menu when neither the queue nor the connection has a greeting. */
  chooseOption: "Escolha uma opção:",
} as const;

/** "Você é o 3º da fila…" (setting sendQueuePosition). */
export function positionText(n: number): string {
  return `Você é o *${n}º* da fila. Aguarde, logo você será atendido.`;
}

/** The alert of a transfer (setting sendTransferAlert); names the user when there is one. */
export function transferText(queueName: string | null, userName: string | null): string {
  if (userName) return `Você foi transferido para *${userName}*${queueName ? ` (${queueName})` : ""}. Aguarde, logo você será atendido.`;
  return `Você foi transferido para o setor *${queueName ?? "-"}*. Aguarde, logo você será atendido.`;
}

/** Sent to a caller when calls are not accepted (setting `call` off). */
export const CALL_REJECTED_TEXT =
  "*Mensagem automática:* as chamadas de voz e vídeo estão desativadas neste WhatsApp. Por favor, envie uma mensagem de texto.";
