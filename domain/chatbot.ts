/**
 * The connection-level queue menu: a new conversation on a connection with several queues
 * gets the greeting followed by a numbered list of the queues; the customer's numeric reply
 * picks the queue. Pure text in, text or choice out.
 */

/** A queue as the menu shows it. */
export interface MenuQueue {
  id: number;
  name: string;
}

/** The greeting followed by "1 - Suporte", "2 - Vendas"… in the given order. */
export function queueMenu(greeting: string, queues: readonly MenuQueue[]): string {
  const lines = queues.map((q, i) => `*${i + 1}* - ${q.name}`);
  return [greeting.trim(), "", ...lines].join("\n").trim();
}

/**
 * The queue the reply `body` picks from the menu, or null when it is not one of the numbers
 * (surrounding spaces, asterisks and a trailing dot or parenthesis are tolerated).
 */
export function menuChoice(body: string, queues: readonly MenuQueue[]): MenuQueue | null {
  const match = /^\s*\*?\s*(\d{1,3})\s*\*?\s*[.)]?\s*$/.exec(body);
  if (!match) return null;
  const index = Number(match[1]) - 1;
  return queues[index] ?? null;
}
